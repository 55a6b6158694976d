/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.scheduling.podgroup;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.MapValue;

/**
 * kube-apiserver's {@code PodGroupProtection} plugin ({@code
 * plugin/pkg/admission/scheduling/podgroupprotection}), registered by name so that {@code
 * --enable-admission-plugins} and {@code --disable-admission-plugins} accept it and it sits in
 * kube's order. In kube it adds the PodGroup protection finalizer to created {@code
 * scheduling.k8s.io} PodGroups, but only while the {@code GenericWorkload} gate is on, which is
 * alpha and off in 1.36, and PodGroups ({@code scheduling.k8s.io/v1alpha2}) are not served by a
 * default 1.36 server (nor by this one); so kube enables it by default and it does nothing, as
 * here. Side effects: none. Thread-safe.
 */
public final class PodGroupProtection implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PodGroupProtection";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  /** Nothing: the plugin is inactive at 1.36's defaults (see the type's description). */
  @Override
  public boolean handles(AdmissionAttributes a) {
    return false;
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    return object;
  }
}
