/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingressclass;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.CollectionKey;
import java.util.Optional;

/**
 * kube-apiserver's {@code DefaultIngressClass} plugin
 * ({@code plugin/pkg/admission/network/defaultingressclass}): an Ingress created without
 * {@code spec.ingressClassName} and without the {@code kubernetes.io/ingress.class} annotation
 * gets the default IngressClass's name: the newest class annotated
 * {@code ingressclass.kubernetes.io/is-default-class: "true"}, the first by name among equally
 * new ones. Side effects: none. Thread-safe.
 */
public final class DefaultIngressClass implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "DefaultIngressClass";
  static final String IS_DEFAULT = "ingressclass.kubernetes.io/is-default-class";
  static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading IngressClasses from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public DefaultIngressClass(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return Admissions.isMain(a, "networking.k8s.io", "ingresses", Operation.CREATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue ingress) {
    MapValue spec = ingress.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    Value given = spec.getOrNull("ingressClassName");
    if (given != null && !(given instanceof NullValue)
        || Meta.annotations(ingress).containsKey(CLASS_ANNOTATION)) {
      return ingress;
    }
    Optional<MapValue> def = Admissions.newestDefault(
        server.list(CollectionKey.all("networking.k8s.io", "ingressclasses")), IS_DEFAULT);
    if (def.isEmpty()) {
      return ingress;
    }
    return ingress.with("spec", spec.with("ingressClassName",
        Value.of(Meta.metaString(def.get(), "name"))));
  }
}
