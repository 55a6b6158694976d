/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import java.util.HashSet;
import java.util.Set;

/**
 * kube-apiserver's {@code DenyServiceExternalIPs} plugin
 * ({@code plugin/pkg/admission/network/denyserviceexternalips}, off by default): a created Service
 * with {@code spec.externalIPs}, or an updated one that adds an external IP its old version did not
 * have, is refused (403 {@code Use of external IPs is denied by admission control}); removing
 * external IPs stays allowed. Side effects: none. Thread-safe.
 */
public final class DenyServiceExternalIPs implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "DenyServiceExternalIPs";

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
    return Admissions.isMain(a, "", "services", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue service = a.object().orElse(null);
    if (service == null || isSubset(service, a.oldObject().orElse(null))) {
      return;
    }
    throw AdmissionErrors.forbidden(a, "Use of external IPs is denied by admission control");
  }

  /** Whether every external IP of {@code service} was already on {@code old}. */
  private static boolean isSubset(MapValue service, MapValue old) {
    if (Nested.list(service, "spec", "externalIPs").isEmpty()) {
      return true;
    }
    if (old == null) {
      return false;
    }
    Set<Value> before = new HashSet<>(Nested.list(old, "spec", "externalIPs"));
    return before.containsAll(Nested.list(service, "spec", "externalIPs"));
  }
}
