/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.core.labels.LabelSelector.Operator;
import io.apiserver4j.core.labels.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.List;

/** A {@code metav1.LabelSelector} object as a selector; one that selects nothing if malformed. */
final class Selectors {
  private Selectors() {}

  static LabelSelector parse(Value selector) {
    List<Requirement> reqs = new ArrayList<>();
    MapValue labels = Nested.map(selector, "matchLabels");
    for (int i = 0; i < labels.size(); i++) {
      reqs.add(new Requirement(labels.keyAt(i), Operator.IN, List.of(text(labels.valueAt(i)))));
    }
    for (Value e : Nested.list(selector, "matchExpressions")) {
      List<String> values = Nested.list(e, "values").stream().map(Selectors::text).toList();
      Operator op = switch (Nested.str(e, "operator")) {
        case "In" -> Operator.IN;
        case "NotIn" -> Operator.NOT_IN;
        case "Exists" -> Operator.EXISTS;
        default -> Operator.DOES_NOT_EXIST;
      };
      reqs.add(new Requirement(Nested.str(e, "key"), op, values));
    }
    return LabelSelector.of(reqs);
  }

  private static String text(Value v) {
    return v instanceof StringValue s ? s.value() : "";
  }
}
