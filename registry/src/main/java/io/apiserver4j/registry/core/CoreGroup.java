/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.core.pod.BindingStrategy;
import io.apiserver4j.registry.core.pod.PodPrinter;
import io.apiserver4j.registry.core.pod.PodStrategy;
import io.apiserver4j.registry.core.componentstatus.ComponentStatusPrinter;
import io.apiserver4j.registry.core.componentstatus.ComponentStatusStrategy;
import io.apiserver4j.registry.core.configmap.ConfigMapPrinter;
import io.apiserver4j.registry.core.configmap.ConfigMapStrategy;
import io.apiserver4j.registry.core.endpoints.EndpointsPrinter;
import io.apiserver4j.registry.core.endpoints.EndpointsStrategy;
import io.apiserver4j.registry.core.event.EventPrinter;
import io.apiserver4j.registry.core.event.EventStrategy;
import io.apiserver4j.registry.core.limitrange.LimitRangeStrategy;
import io.apiserver4j.registry.core.namespace.NamespacePrinter;
import io.apiserver4j.registry.core.namespace.NamespaceStrategy;
import io.apiserver4j.registry.core.node.NodePrinter;
import io.apiserver4j.registry.core.node.NodeStrategy;
import io.apiserver4j.registry.core.persistentvolume.PersistentVolumePrinter;
import io.apiserver4j.registry.core.persistentvolume.PersistentVolumeStrategy;
import io.apiserver4j.registry.core.persistentvolumeclaim.PersistentVolumeClaimPrinter;
import io.apiserver4j.registry.core.persistentvolumeclaim.PersistentVolumeClaimStrategy;
import io.apiserver4j.registry.core.podtemplate.PodTemplatePrinter;
import io.apiserver4j.registry.core.podtemplate.PodTemplateStrategy;
import io.apiserver4j.registry.core.replicationcontroller.ReplicationControllerPrinter;
import io.apiserver4j.registry.core.replicationcontroller.ReplicationControllerStrategy;
import io.apiserver4j.registry.core.resourcequota.ResourceQuotaPrinter;
import io.apiserver4j.registry.core.resourcequota.ResourceQuotaStrategy;
import io.apiserver4j.registry.core.secret.SecretPrinter;
import io.apiserver4j.registry.core.secret.SecretStrategy;
import io.apiserver4j.registry.core.service.ServicePrinter;
import io.apiserver4j.registry.core.service.ServiceStrategy;
import io.apiserver4j.registry.core.serviceaccount.ServiceAccountPrinter;
import io.apiserver4j.registry.core.serviceaccount.ServiceAccountStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.ArrayList;
import java.util.List;

/** The kinds of the {@code core} API group with their registry behaviour (kube's pkg/registry/core). */
public final class CoreGroup {
  private CoreGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    List<BuiltinKind> kinds = new ArrayList<>();
    // --- pods (core.pod): Pod, and the legacy Binding kube serves from the pod storage ---
    kinds.add(BuiltinKind.of(v1("Pod"), PodStrategy.strategy(), PodPrinter::printer));
    kinds.add(BuiltinKind.of(v1("Binding"), BindingStrategy.strategy()));
    // --- end of pods ---
    kinds.addAll(kindsBeyondPods());
    return List.copyOf(kinds);
  }

  // --- the core kinds other than Pods ------------------------------------

  private static List<BuiltinKind> kindsBeyondPods() {
    return List.of(
        BuiltinKind.of(v1("ComponentStatus"), ComponentStatusStrategy.strategy(),
            ComponentStatusPrinter::printer),
        BuiltinKind.of(v1("ConfigMap"), ConfigMapStrategy.strategy(),
            ConfigMapPrinter::printer),
        BuiltinKind.of(v1("Endpoints"), EndpointsStrategy.strategy(),
            EndpointsPrinter::printer),
        BuiltinKind.of(v1("Event"), EventStrategy.strategy(), EventPrinter::printer),
        BuiltinKind.of(v1("LimitRange"), LimitRangeStrategy.strategy()),
        BuiltinKind.of(v1("Namespace"), NamespaceStrategy.strategy(),
            NamespacePrinter::printer),
        BuiltinKind.of(v1("Node"), NodeStrategy.strategy(), NodePrinter::printer),
        BuiltinKind.of(v1("PersistentVolume"), PersistentVolumeStrategy.strategy(),
            PersistentVolumePrinter::printer),
        BuiltinKind.of(v1("PersistentVolumeClaim"), PersistentVolumeClaimStrategy.strategy(),
            PersistentVolumeClaimPrinter::printer),
        BuiltinKind.of(v1("PodTemplate"), PodTemplateStrategy.strategy(),
            PodTemplatePrinter::printer),
        BuiltinKind.of(v1("ReplicationController"), ReplicationControllerStrategy.strategy(),
            ReplicationControllerPrinter::printer),
        BuiltinKind.of(v1("ResourceQuota"), ResourceQuotaStrategy.strategy(),
            ResourceQuotaPrinter::printer),
        BuiltinKind.of(v1("Secret"), SecretStrategy.strategy(), SecretPrinter::printer),
        BuiltinKind.of(v1("Service"), ServiceStrategy.strategy(), ServicePrinter::printer),
        BuiltinKind.of(v1("ServiceAccount"), ServiceAccountStrategy.strategy(),
            ServiceAccountPrinter::printer));
  }

  private static GroupVersionKind v1(String kind) {
    return new GroupVersionKind("", "v1", kind);
  }
}
