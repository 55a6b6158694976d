/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Quantities as the scheduler counts them: CPU in millicores ({@code MilliValue}), everything
 * else in whole units rounded up ({@code Value}), as apimachinery's {@code resource.Quantity}.
 */
public final class Quantities {
  private Quantities() {}

  /** The value of the quantity {@code v} in the unit of {@code resource}; 0 if not one. */
  public static long of(String resource, Value v) {
    if (v == null) {
      return 0;
    }
    String text = switch (v.kind()) {
      case STRING -> Nested.str(v);
      case INTEGER -> Long.toString(Nested.integer(v));
      case FLOAT -> v.toString();
      default -> "";
    };
    return Quantity.parse(text).map(q -> resource.equals("cpu")
        ? q.value().multiply(BigDecimal.valueOf(1000)).setScale(0, RoundingMode.UP).longValue()
        : q.value().setScale(0, RoundingMode.UP).longValue()).orElse(0L);
  }
}
