/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.TreeMap;

/** How Go prints API values inside kube's messages, where tests compare the exact text. */
public final class GoStrings {
  private GoStrings() {}

  /**
   * The generated {@code String()} of a {@code *metav1.LabelSelector}, as Go's {@code %v} and
   * {@code %+v} print it ({@code nil} when there is none).
   */
  public static String labelSelector(Value selector) {
    if (!(selector instanceof MapValue m)) {
      return "nil";
    }
    StringBuilder b = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
    TreeMap<String, String> labels = new TreeMap<>();
    Nested.map(m, "matchLabels").forEach((k, v) -> labels.put(k, Nested.str(v)));
    labels.forEach((k, v) -> b.append(k).append(": ").append(v).append(','));
    b.append("},MatchExpressions:[]LabelSelectorRequirement{");
    for (Value r : Nested.list(m, "matchExpressions")) {
      b.append("LabelSelectorRequirement{Key:").append(Nested.str(r, "key"))
          .append(",Operator:").append(Nested.str(r, "operator")).append(",Values:[")
          .append(String.join(" ", Meta.stringList(Nested.getOrNull(r, "values"))))
          .append("],},");
    }
    return b.append("},}").toString();
  }
}
