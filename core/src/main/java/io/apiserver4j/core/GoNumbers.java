/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** Number parsing with the syntax of Go's {@code strconv}, as yaml.v2 applies it. */
final class GoNumbers {
  private GoNumbers() {}

  /** Go's {@code ParseInt(s, 0, 64)}; null when {@code s} is not a valid int64. */
  static Long parseIntBase0(String s) {
    if (s.isEmpty()) {
      return null;
    }
    boolean neg = false;
    int i = 0;
    if (s.charAt(0) == '+' || s.charAt(0) == '-') {
      neg = s.charAt(0) == '-';
      i = 1;
    }
    String rest = s.substring(i);
    int base = 10;
    if (rest.length() > 1 && rest.charAt(0) == '0') {
      char p = Character.toLowerCase(rest.charAt(1));
      if (p == 'x') {
        base = 16;
        rest = rest.substring(2);
      } else if (p == 'o') {
        base = 8;
        rest = rest.substring(2);
      } else if (p == 'b') {
        base = 2;
        rest = rest.substring(2);
      } else {
        base = 8;
        rest = rest.substring(1);
      }
    }
    return parseDigits(rest, base, neg);
  }

  /** Parses digits in {@code base} with overflow checking; null when invalid. */
  static Long parseDigits(String digits, int base, boolean negative) {
    if (digits.isEmpty()) {
      return null;
    }
    try {
      java.math.BigInteger v = new java.math.BigInteger(digits, base);
      if (digits.charAt(0) == '-' || digits.charAt(0) == '+') {
        return null;
      }
      if (negative) {
        v = v.negate();
      }
      return v.bitLength() <= 63 ? v.longValue() : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Go's {@code ParseUint(s, 0, 64)} for values above int64, returned as a double. */
  static Double parseUintBase0(String s) {
    if (s.isEmpty() || s.charAt(0) == '-' || s.charAt(0) == '+') {
      return null;
    }
    String digits = s;
    int base = 10;
    if (s.length() > 1 && s.charAt(0) == '0') {
      char p = Character.toLowerCase(s.charAt(1));
      base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 8;
      digits = s.substring(p == 'x' || p == 'o' || p == 'b' ? 2 : 1);
    }
    try {
      java.math.BigInteger v = new java.math.BigInteger(digits, base);
      if (digits.startsWith("-") || digits.startsWith("+") || v.bitLength() > 64) {
        return null;
      }
      return v.doubleValue();
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Go's {@code ParseFloat(s, 64)} for decimal syntax; null when invalid. */
  static Double parseFloat(String s) {
    if (s.isEmpty()) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+'
          || c == '-';
      if (!ok) {
        return null;
      }
    }
    try {
      double d = Double.parseDouble(s);
      // Go's ParseFloat fails with ErrRange where Java overflows to an infinity
      return Double.isInfinite(d) ? null : d;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
