/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.core.labels.LabelSelector.Operator;
import io.apiserver4j.core.labels.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * apimachinery's {@code metav1.LabelSelectorAsSelector} as the scheduler plugins use it: an
 * absent selector selects nothing (empty), an empty one everything; plus the merge of
 * {@code matchLabelKeys} ({@code key in (value)}) and {@code mismatchLabelKeys}
 * ({@code key notin (value)}) with the Pod's own label values, keys the Pod lacks ignored.
 * kube-apiserver merges those keys into the selector when it admits the Pod; merging them here
 * again is harmless (the same requirement twice) and covers Pods this server stored unmerged.
 */
final class PodSelectors {
  private PodSelectors() {}

  /**
   * The selector of {@code selector}, empty when absent (labels.Nothing).
   *
   * @throws IllegalArgumentException for an operator or values apimachinery refuses
   */
  static Optional<LabelSelector> of(Value selector) {
    if (!(selector instanceof MapValue)) {
      return Optional.empty();
    }
    return Optional.of(LabelSelectors.parse(selector));
  }

  /**
   * {@code selector} with a requirement on each key of {@code matchKeys} ({@link Operator#IN})
   * and {@code mismatchKeys} ({@link Operator#NOT_IN}) that {@code pod} has a label for.
   */
  static Optional<LabelSelector> withLabelKeys(Optional<LabelSelector> selector, MapValue pod,
      List<Value> matchKeys, List<Value> mismatchKeys) {
    if (selector.isEmpty() || matchKeys.isEmpty() && mismatchKeys.isEmpty()) {
      return selector;
    }
    Map<String, String> labels = Meta.labels(pod);
    List<Requirement> reqs = new ArrayList<>(selector.get().requirements());
    int before = reqs.size();
    for (Value k : matchKeys) {
      String value = labels.get(Nested.str(k));
      if (value != null) {
        reqs.add(new Requirement(Nested.str(k), Operator.IN, List.of(value)));
      }
    }
    for (Value k : mismatchKeys) {
      String value = labels.get(Nested.str(k));
      if (value != null) {
        reqs.add(new Requirement(Nested.str(k), Operator.NOT_IN, List.of(value)));
      }
    }
    return reqs.size() == before ? selector : Optional.of(LabelSelector.of(reqs));
  }

  /** core/v1 helper {@code PodPriority}: {@code spec.priority}, 0 when unset. */
  static long priority(MapValue pod) {
    return Nested.integer(pod, "spec", "priority");
  }
}
