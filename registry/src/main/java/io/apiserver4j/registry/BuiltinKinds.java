/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeResource;
import io.apiserver4j.kubeapi.KubeSubresource;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.registry.admissionregistration.AdmissionregistrationGroup;
import io.apiserver4j.registry.apiextensions.ApiextensionsGroup;
import io.apiserver4j.registry.apiregistration.ApiregistrationGroup;
import io.apiserver4j.registry.apps.AppsGroup;
import io.apiserver4j.registry.autoscaling.AutoscalingGroup;
import io.apiserver4j.registry.batch.BatchGroup;
import io.apiserver4j.registry.certificates.CertificatesGroup;
import io.apiserver4j.registry.coordination.CoordinationGroup;
import io.apiserver4j.registry.core.CoreGroup;
import io.apiserver4j.registry.discovery.DiscoveryGroup;
import io.apiserver4j.registry.events.EventsGroup;
import io.apiserver4j.registry.flowcontrol.FlowcontrolGroup;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.networking.NetworkingGroup;
import io.apiserver4j.registry.node.NodeGroup;
import io.apiserver4j.registry.policy.PolicyGroup;
import io.apiserver4j.registry.rbac.RbacGroup;
import io.apiserver4j.registry.resource.ResourceGroup;
import io.apiserver4j.registry.scheduling.SchedulingGroup;
import io.apiserver4j.registry.storage.StorageGroup;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The resources a Kubernetes 1.36 kube-apiserver (or an older release's) serves by default
 * ({@link KubeApi}), each with
 * its generated discovery facts and schema, and with the behaviour its group's registry declares
 * ({@link BuiltinKind}: strategy and printer columns); a resource no group declares gets the
 * default strategy and kube's default columns.
 */
final class BuiltinKinds {
  // Every group's registry, in kube-apiserver's group order; before DEFINITIONS, which reads it
  // while the class initializes.
  private static final List<Supplier<List<BuiltinKind>>> GROUPS = List.of(
      CoreGroup::kinds, AppsGroup::kinds, BatchGroup::kinds, AutoscalingGroup::kinds,
      PolicyGroup::kinds, NetworkingGroup::kinds, RbacGroup::kinds, StorageGroup::kinds,
      CertificatesGroup::kinds, FlowcontrolGroup::kinds, ResourceGroup::kinds,
      CoordinationGroup::kinds, SchedulingGroup::kinds, NodeGroup::kinds,
      DiscoveryGroup::kinds, EventsGroup::kinds, AdmissionregistrationGroup::kinds,
      ApiregistrationGroup::kinds, ApiextensionsGroup::kinds);

  private static final List<ResourceDefinition> DEFINITIONS = build(KubeVersion.latest());
  private static final Map<KubeVersion, List<ResourceDefinition>> OLDER =
      new EnumMap<>(KubeVersion.class);

  private BuiltinKinds() {}

  /** The built-in definitions, in registration order (kube-apiserver's group order). */
  static List<ResourceDefinition> definitions() {
    return DEFINITIONS;
  }

  /** The built-in definitions of {@code version}, built on first use. */
  static List<ResourceDefinition> definitions(KubeVersion version) {
    if (version == KubeVersion.latest()) {
      return DEFINITIONS;
    }
    synchronized (OLDER) {
      return OLDER.computeIfAbsent(version, BuiltinKinds::build);
    }
  }

  private static List<ResourceDefinition> build(KubeVersion version) {
    Schema schema = BuiltinResources.schema(version);
    Map<GroupVersionKind, BuiltinKind> declared = new HashMap<>();
    for (Supplier<List<BuiltinKind>> group : GROUPS) {
      for (BuiltinKind k : group.get()) {
        if (declared.put(k.kind(), k) != null) {
          throw new IllegalStateException("kind declared twice: " + k.kind());
        }
      }
    }
    List<ResourceDefinition> out = new ArrayList<>();
    for (KubeResource r : KubeApi.resources(version)) {
      BuiltinKind kind = declared.remove(r.kind());
      ResourceDefinition.Builder b = ResourceDefinition.builder(r.kind(), r.plural())
          .singular(r.singular())
          .listKind(r.listKind())
          .namespaced(r.namespaced())
          .shortNames(r.shortNames())
          .categories(r.categories())
          .verbs(r.verbs())
          .storageVersionHash(r.storageVersionHash())
          .schema(schema, r.schemaType())
          .status(r.subresource("status").isPresent())
          .strategy(kind == null ? ResourceStrategy.defaults() : kind.strategy());
      if (r.subresource("scale").isPresent()) {
        b.scale(ScaleSubresource.builtinWorkload());
      }
      if (kind != null) {
        kind.printer().ifPresent(b::printer);
      }
      List<ResourceDefinition.Subresource> subs = new ArrayList<>();
      for (KubeSubresource s : r.subresources()) {
        subs.add(new ResourceDefinition.Subresource(s.name(), s.kind(), s.verbs()));
      }
      out.add(b.discoverySubresources(subs).build());
    }
    // an older release lacks kinds added since (MutatingAdmissionPolicy, resource.k8s.io/v1)
    if (!declared.isEmpty() && version == KubeVersion.latest()) {
      // a group declaring a kind the API does not serve is a mistake in this registry
      throw new IllegalStateException("kinds declared but not served: " + declared.keySet());
    }
    return List.copyOf(out);
  }
}
