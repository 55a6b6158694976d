/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.resourcequota;

import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * core/v1 ResourceQuota (kube's pkg/registry/core/resourcequota): {@code ValidateResourceQuota}
 * (standard quota resource names, non-negative and integer quantities, scopes and the resources
 * they fit), with kube's field paths and messages.
 */
public final class ResourceQuotaStrategy {
  private static final Set<String> QUOTA_RESOURCES = Set.of("pods", "cpu", "memory",
      "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage",
      "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
      "persistentvolumeclaims", "services", "replicationcontrollers", "resourcequotas",
      "secrets", "configmaps", "services.nodeports", "services.loadbalancers");
  private static final Set<String> SCOPES = Set.of("Terminating", "NotTerminating",
      "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity",
      "VolumeAttributesClass");
  private static final Set<String> INTEGER_RESOURCES = Set.of("pods", "services",
      "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
      "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");
  private static final Set<String> POD_COMPUTE = Set.of("pods", "cpu", "memory",
      "requests.cpu", "requests.memory", "limits.cpu", "limits.memory", "ephemeral-storage",
      "requests.ephemeral-storage", "limits.ephemeral-storage");

  private ResourceQuotaStrategy() {}

  /** The ResourceQuota strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator((o, old) -> validate(o))
        .build();
  }

  private static boolean scopeFits(String scope, String resource) {
    switch (scope) {
      case "BestEffort":
        return resource.equals("pods");
      case "VolumeAttributesClass":
        return resource.equals("persistentvolumeclaims") || resource.equals("requests.storage");
      default:
        return POD_COMPUTE.contains(resource) || resource.startsWith("requests.hugepages-");
    }
  }

  static List<FieldError> validate(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    MapValue hard = Nested.map(o, "spec", "hard");
    for (int i = 0; i < hard.size(); i++) {
      String name = hard.keyAt(i);
      String at = "spec.hard[" + name + "]";
      List<String> msgs = MetaValidation.qualifiedName(name);
      msgs.forEach(m -> errs.add(FieldError.invalid(at, Value.of(name), m)));
      if (msgs.isEmpty() && !name.contains("/") && !QUOTA_RESOURCES.contains(name)
          && !name.startsWith("requests.hugepages-")) {
        errs.add(FieldError.invalid(at, Value.of(name), "must be a standard resource for quota"));
      }
      GroupRules.quantity(errs, at, hard.valueAt(i)).ifPresent(q -> {
        GroupRules.nonNegative(errs, at, q);
        if (INTEGER_RESOURCES.contains(name)
            && q.value().movePointRight(3).setScale(0, RoundingMode.UP)
                .remainder(BigDecimal.valueOf(1000)).signum() != 0) {
          errs.add(FieldError.invalid(at, Value.of(q.toString()), "must be an integer"));
        }
      });
    }
    Value scopes = Nested.getOrNull(o, "spec", "scopes");
    List<String> names = strings(o, "spec", "scopes");
    for (String scope : names) {
      if (!SCOPES.contains(scope)) {
        errs.add(FieldError.invalid("spec.scopes", scopes, "unsupported scope"));
      }
      for (String k : new java.util.TreeSet<>(hardNames(hard))) {
        if (QUOTA_RESOURCES.contains(k) && SCOPES.contains(scope) && !scopeFits(scope, k)) {
          errs.add(FieldError.invalid("spec.scopes", scopes,
              "unsupported scope applied to resource"));
        }
      }
    }
    if ((names.contains("BestEffort") && names.contains("NotBestEffort"))) {
      errs.add(FieldError.invalid("spec.scopes", scopes, "conflicting scopes"));
    }
    if (names.contains("Terminating") && names.contains("NotTerminating")) {
      errs.add(FieldError.invalid("spec.scopes", scopes, "conflicting scopes"));
    }
    return errs;
  }

  private static List<String> hardNames(MapValue hard) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < hard.size(); i++) {
      out.add(hard.keyAt(i));
    }
    return out;
  }
}
