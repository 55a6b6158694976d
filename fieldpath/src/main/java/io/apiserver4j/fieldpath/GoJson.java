/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.GoStrings;


/**
 * String and number formatting exactly as the Go code behind FieldsV1 and path strings writes it:
 * json-iterator's standard-library-compatible string escaping, and {@code fmt}'s {@code %q} and
 * {@code %v}.
 */
final class GoJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoJson() {}

  /**
   * Appends {@code s} as a JSON string literal with Go's HTML-safe escaping: {@code <}, {@code >},
   * {@code &}, U+2028 and U+2029 as {@code \\uXXXX}; {@code \n}, {@code \r}, {@code \t} short; other
   * control characters as {@code \\u00XX}; unpaired surrogates (invalid UTF-8 in Go) as U+FFFD.
   */
  static void appendQuoted(StringBuilder sb, String s) {
    sb.append('"');
    appendEscaped(sb, s);
    sb.append('"');
  }

  /** The body of {@link #appendQuoted} without the quotes. */
  static void appendEscaped(StringBuilder sb, String s) {
    int n = s.length();
    int start = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < Character.MIN_SURROGATE) {
        if (c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' && c != 0x2028
            && c != 0x2029) {
          continue;
        }
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        sb.append(s, start, i).append("\\ufffd");
        start = i + 1;
        continue;
      } else if (c > Character.MAX_SURROGATE) {
        continue;
      }
      sb.append(s, start, i);
      start = i + 1;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
            .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
      }
    }
    sb.append(s, start, n);
  }

  /** {@code s} Go-quoted, for error messages. */
  static String quoteForMessage(String s) {
    return GoStrings.quote(s);
  }
}
