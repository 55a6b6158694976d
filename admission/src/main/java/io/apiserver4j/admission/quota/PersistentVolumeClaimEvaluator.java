/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's {@code pvcEvaluator} ({@code pkg/quota/v1/evaluator/core/persistent_volume_claims.go}):
 * {@code persistentvolumeclaims} and {@code count/persistentvolumeclaims} one each,
 * {@code requests.storage} the claim's request rounded up to whole bytes (or its allocated
 * storage when larger), and both again per storage class as
 * {@code <class>.storageclass.storage.k8s.io/<resource>}; the {@code VolumeAttributesClass}
 * scope. Charged on create and update of the main resource.
 */
final class PersistentVolumeClaimEvaluator implements QuotaEvaluator {
  static final GroupResource CLAIMS = new GroupResource("", "persistentvolumeclaims");
  static final String STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
  private static final String COUNT = "count/persistentvolumeclaims";
  private static final List<String> RESOURCES = List.of("persistentvolumeclaims",
      "requests.storage");

  @Override
  public GroupResource groupResource() {
    return CLAIMS;
  }

  @Override
  public boolean handles(Operation operation, String subresource) {
    // kube's RequiresQuotaReplenish compares the two claims' allocated storage by pointer, and
    // those pointers are always new copies: every status update is evaluated
    return subresource.isEmpty()
        ? operation == Operation.CREATE || operation == Operation.UPDATE
        : subresource.equals("status") && operation == Operation.UPDATE;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    List<String> out = new ArrayList<>();
    for (String item : input) {
      if (item.equals(COUNT) || RESOURCES.contains(item)) {
        out.add(item);
        continue;
      }
      for (String r : RESOURCES) {
        if (item.endsWith(STORAGE_CLASS_SUFFIX + r)) {
          out.add(item);
          break;
        }
      }
    }
    return out;
  }

  @Override
  public boolean matchesScope(ScopeRequirement requirement, MapValue pvc) {
    if (!requirement.scopeName().equals("VolumeAttributesClass")) {
      return false;
    }
    Set<String> names = volumeAttributesClassNames(pvc);
    if (requirement.operator().equals(ScopeRequirement.EXISTS)) {
      return !names.isEmpty();
    }
    if (names.isEmpty()) {
      return requirement.selects("");
    }
    return names.stream().anyMatch(requirement::selects);
  }

  private static Set<String> volumeAttributesClassNames(MapValue pvc) {
    Set<String> out = new TreeSet<>();
    for (String v : List.of(Nested.str(pvc, "spec", "volumeAttributesClassName"),
        Nested.str(pvc, "status", "currentVolumeAttributesClassName"),
        Nested.str(pvc, "status", "modifyVolumeStatus", "targetVolumeAttributesClassName"))) {
      if (!v.isEmpty()) {
        out.add(v);
      }
    }
    return out;
  }

  @Override
  public SortedMap<String, Quantity> usage(MapValue pvc) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    out.put("persistentvolumeclaims", ResourceLists.of(1));
    out.put(COUNT, ResourceLists.of(1));
    String storageClass = storageClass(pvc);
    if (!storageClass.isEmpty()) {
      out.put(storageClass + STORAGE_CLASS_SUFFIX + "persistentvolumeclaims", ResourceLists.of(1));
    }
    storageUsage(pvc).ifPresent(q -> {
      out.put("requests.storage", q);
      if (!storageClass.isEmpty()) {
        out.put(storageClass + STORAGE_CLASS_SUFFIX + "requests.storage", q);
      }
    });
    return out;
  }

  /** kube's {@code GetPersistentVolumeClaimClass}: the beta annotation, else the field. */
  static String storageClass(MapValue pvc) {
    Value beta = Nested.getOrNull(pvc, "metadata", "annotations",
        "volume.beta.kubernetes.io/storage-class");
    if (beta instanceof StringValue s) {
      return s.value();
    }
    return Nested.str(pvc, "spec", "storageClassName");
  }

  private static Optional<Quantity> storageUsage(MapValue pvc) {
    Optional<Quantity> request = ResourceLists.quantity(
        Nested.getOrNull(pvc, "spec", "resources", "requests", "storage"))
        .map(PersistentVolumeClaimEvaluator::roundUp);
    Optional<Quantity> allocated = ResourceLists.quantity(
        Nested.getOrNull(pvc, "status", "allocatedResources", "storage"));
    if (request.isPresent() && allocated.isPresent()
        && allocated.get().compareTo(request.get()) > 0) {
      return allocated.map(PersistentVolumeClaimEvaluator::roundUp);
    }
    return request;
  }

  /** {@code Quantity.RoundUp(0)}: whole bytes, so the quota's own validation accepts the sum. */
  private static Quantity roundUp(Quantity q) {
    return q.isInteger() ? q
        : new Quantity(q.value().setScale(0, RoundingMode.UP), q.format());
  }

  /** kube's {@code RequiresQuotaReplenish}: the allocated storage or the attribute classes changed. */
  static boolean requiresReplenish(MapValue pvc, MapValue old) {
    Optional<Quantity> a = ResourceLists.quantity(
        Nested.getOrNull(pvc, "status", "allocatedResources", "storage"));
    Optional<Quantity> b = ResourceLists.quantity(
        Nested.getOrNull(old, "status", "allocatedResources", "storage"));
    boolean same = a.isPresent() == b.isPresent()
        && (a.isEmpty() || a.get().compareTo(b.get()) == 0);
    return !same || !volumeAttributesClassNames(pvc).equals(volumeAttributesClassNames(old));
  }
}
