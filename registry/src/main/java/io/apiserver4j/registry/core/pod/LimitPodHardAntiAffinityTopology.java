/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.registry.internal.Admissions;

/**
 * kube-apiserver's {@code LimitPodHardAntiAffinityTopology} plugin
 * ({@code plugin/pkg/admission/antiaffinity}, off by default): a created or updated Pod whose
 * required pod anti-affinity term has a topology key other than {@code kubernetes.io/hostname}
 * is refused (403 {@code affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey <k>
 * but only key kubernetes.io/hostname is allowed}). Side effects: none. Thread-safe.
 */
public final class LimitPodHardAntiAffinityTopology implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "LimitPodHardAntiAffinityTopology";
  static final String HOSTNAME = "kubernetes.io/hostname";

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
    return Admissions.isMain(a, "", "pods", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pod = a.object().orElse(null);
    if (pod == null) {
      return;
    }
    for (Value term : Nested.list(pod, "spec", "affinity", "podAntiAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution")) {
      String key = Nested.str(term, "topologyKey");
      if (!key.equals(HOSTNAME)) {
        throw StatusErrors.forbidden(new GroupResource("", "pods"), Meta.metaString(pod, "name"),
            "affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey " + key
                + " but only key " + HOSTNAME + " is allowed");
      }
    }
  }
}
