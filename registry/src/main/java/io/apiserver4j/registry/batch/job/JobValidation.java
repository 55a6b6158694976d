/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.job;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.SideEffects;

/**
 * kube-apiserver's {@code JobValidation} plugin ({@code plugin/pkg/admission/job}), registered by
 * name so that {@code --enable-admission-plugins} and {@code --disable-admission-plugins} accept
 * it and it sits in kube's order. In kube it validates Jobs against the workload scheduling API
 * only while the {@code WorkloadWithJob} gate is on, which is alpha (new in 1.36) and off by
 * default; so kube enables it by default and it does nothing, as here. Side effects: none. Thread-
 * safe.
 */
public final class JobValidation implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "JobValidation";

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
  public void validate(AdmissionAttributes a) {
    // inactive: see the type's description
  }
}
