/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.core.labels.LabelSelector.Operator;
import io.apiserver4j.core.labels.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code metav1.LabelSelector} object as a {@link LabelSelector}, as apimachinery's
 * {@code LabelSelectorAsSelector}: {@code matchLabels} are equality requirements,
 * {@code matchExpressions} use {@code In}, {@code NotIn}, {@code Exists} and
 * {@code DoesNotExist}; a selector with neither selects everything.
 */
public final class LabelSelectors {
  private LabelSelectors() {}

  /**
   * Parses a label selector object; an absent (null) selector selects everything, which is what
   * admissionregistration defaults it to.
   *
   * @throws IllegalArgumentException with apimachinery's message for an unknown operator or
   *     values that do not fit the operator
   * @param selector a {@code metav1.LabelSelector} value, or null
   * @return the selector
   */
  public static LabelSelector parse(Value selector) {
    if (selector == null || !(selector instanceof MapValue)) {
      return LabelSelector.everything();
    }
    List<Requirement> reqs = new ArrayList<>();
    MapValue labels = Nested.map(selector, "matchLabels");
    for (int i = 0; i < labels.size(); i++) {
      Value v = labels.valueAt(i);
      reqs.add(new Requirement(labels.keyAt(i), Operator.EQUALS,
          List.of(v instanceof StringValue s ? s.value() : "")));
    }
    for (Value e : Nested.list(selector, "matchExpressions")) {
      List<String> values = Meta.stringList(Nested.getOrNull(e, "values"));
      String operator = Nested.str(e, "operator");
      Operator op;
      switch (operator) {
        case "In": op = Operator.IN; break;
        case "NotIn": op = Operator.NOT_IN; break;
        case "Exists": op = Operator.EXISTS; break;
        case "DoesNotExist": op = Operator.DOES_NOT_EXIST; break;
        default:
          throw new IllegalArgumentException("\"" + operator
              + "\" is not a valid label selector operator");
      }
      if ((op == Operator.IN || op == Operator.NOT_IN) && values.isEmpty()) {
        throw new IllegalArgumentException(
            "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't"
                + " be empty");
      }
      if ((op == Operator.EXISTS || op == Operator.DOES_NOT_EXIST) && !values.isEmpty()) {
        throw new IllegalArgumentException("values: Invalid value: " + goStrings(values)
            + ": values set must be empty for exists and does not exist");
      }
      reqs.add(new Requirement(Nested.str(e, "key"), op, values));
    }
    return LabelSelector.of(reqs);
  }

  private static String goStrings(List<String> values) {
    StringBuilder b = new StringBuilder("[]string{");
    for (int i = 0; i < values.size(); i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(values.get(i)).append('"');
    }
    return b.append('}').toString();
  }
}
