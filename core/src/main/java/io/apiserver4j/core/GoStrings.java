/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.math.BigDecimal;

/**
 * Go's text formatting that kube-apiserver's messages depend on: {@code strconv.Quote} (the
 * {@code %q} verb), {@code unicode.IsPrint}, the {@code %v} form of a float and of a label selector. Differs from JSON
 * quoting: no HTML escaping, {@code \\x} and {@code \\U} escapes.
 */
public final class GoStrings {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoStrings() {}

  /**
   * {@code s} quoted as Go's {@code strconv.Quote} does.
   *
   * @param s the string
   * @return the quoted string
   */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    appendQuoted(sb, s);
    return sb.toString();
  }

  /**
   * Appends {@code s} quoted as Go's {@code strconv.Quote} (the {@code %q} verb) does.
   *
   * @param sb the builder
   * @param s the string
   */
  public static void appendQuoted(StringBuilder sb, String s) {
    sb.append('"');
    int n = s.length();
    for (int i = 0; i < n; ) {
      int cp = s.codePointAt(i);
      int len = Character.charCount(cp);
      i += len;
      if (Character.isSurrogate((char) cp) && len == 1) {
        sb.append("\\ufffd");
        continue;
      }
      switch (cp) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case 0x07 -> sb.append("\\a");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case 0x0B -> sb.append("\\v");
        default -> {
          if (isPrint(cp)) {
            sb.appendCodePoint(cp);
          } else if (cp < 0x20 || cp == 0x7F) {
            sb.append("\\x").append(HEX[cp >> 4]).append(HEX[cp & 0xF]);
          } else if (cp < 0x10000) {
            sb.append("\\u");
            appendHex(sb, cp, 4);
          } else {
            sb.append("\\U");
            appendHex(sb, cp, 8);
          }
        }
      }
    }
    sb.append('"');
  }

  private static void appendHex(StringBuilder sb, int v, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      sb.append(HEX[(v >> shift) & 0xF]);
    }
  }

  /**
   * Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols, ASCII space.
   *
   * @param cp the code point
   * @return true when printable
   */
  public static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION, Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }

  /**
   * Formats a float as Go's {@code %v} verb does ({@code strconv.FormatFloat(f, 'g', -1, 64)}):
   * shortest digits; exponent form ({@code 1e+06}, {@code 1.5e-05}) when the decimal exponent is
   * below -4 or at least 6, plain decimal otherwise.
   *
   * @param d the float
   * @return the text
   */
  public static String formatFloatV(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal bd = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
    String digits = bd.unscaledValue().toString();
    int exp = digits.length() - 1 - bd.scale();
    StringBuilder sb = new StringBuilder(24);
    if (d < 0) {
      sb.append('-');
    }
    // With the shortest representation Go's 'g' format uses precision 6 to pick the form.
    if (exp < -4 || exp >= 6) {
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      sb.append('e').append(exp < 0 ? '-' : '+');
      int e = Math.abs(exp);
      if (e < 10) {
        sb.append('0');
      }
      sb.append(e);
      return sb.toString();
    }
    sb.append(bd.toPlainString());
    return sb.toString();
  }


  /**
   * The word Go's encoding/json uses for a JSON value in its type errors.
   *
   * @param value the value
   * @return e.g. {@code object}, {@code array}, {@code string}
   */
  public static String jsonKind(Value value) {
    return switch (value.kind()) {
      case MAP -> "object";
      case LIST -> "array";
      case STRING -> "string";
      case INTEGER, FLOAT -> "number";
      case BOOLEAN -> "bool";
      case NULL -> "null";
    };
  }

  /**
   * The {@code reflect.Kind} Go gives a value decoded into {@code interface{}} with numbers as
   * kube's JSON decoder converts them (whole numbers to {@code int64}).
   *
   * @param value the value
   * @return e.g. {@code map}, {@code slice}, {@code int64}
   */
  public static String reflectKind(Value value) {
    return switch (value.kind()) {
      case INTEGER -> "int64";
      case FLOAT -> "float64";
      case STRING -> "string";
      case BOOLEAN -> "bool";
      case LIST -> "slice";
      case MAP, NULL -> "map";
    };
  }

  /**
   * The generated {@code String()} of a {@code *metav1.LabelSelector}, as Go's {@code %v} and
   * {@code %+v} print it in kube's messages.
   *
   * @param selector the selector, or null or a non-object when there is none
   * @return the printed selector, {@code nil} when there is none
   */
  public static String labelSelector(Value selector) {
    if (!(selector instanceof MapValue m)) {
      return "nil";
    }
    StringBuilder b = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
    java.util.TreeMap<String, String> labels = new java.util.TreeMap<>();
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
