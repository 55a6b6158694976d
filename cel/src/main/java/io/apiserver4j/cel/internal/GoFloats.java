/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import java.math.BigDecimal;

/** Go's formatting of doubles, which cel-go's {@code string(double)} and {@code %s} use. */
final class GoFloats {
  private GoFloats() {}

  /**
   * Go's {@code fmt.Sprintf("%g", d)}: the shortest digits that read back as {@code d}, in
   * exponent form ({@code 1e+06}, {@code 1e-05}) when the exponent is below -4 or at least 6.
   */
  static String g(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    // Java's Double.toString has the shortest round-tripping digits too
    BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 6) {
      String mantissa = digits.length() == 1 ? digits
          : digits.charAt(0) + "." + digits.substring(1);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
          + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }
    return sign + shortest.toPlainString();
  }
}
