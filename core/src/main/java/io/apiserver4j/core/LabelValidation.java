/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * Label key and value validation as apimachinery does it ({@code IsQualifiedName},
 * {@code IsValidLabelValue}), with its exact messages. Each check returns the list of problems,
 * empty when the input is valid; callers wrap them into their own error shape (field errors for
 * object metadata, selector parse errors for label selectors).
 */
public final class LabelValidation {
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist"
      + " of lower case alphanumeric characters, '-' or '.', and must start and end with an"
      + " alphanumeric character";
  private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_'"
      + " or '.', and must start and end with an alphanumeric character";
  private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";
  private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist"
      + " of alphanumeric characters, '-', '_' or '.', and must start and end with an"
      + " alphanumeric character";

  private LabelValidation() {}

  /**
   * {@code IsQualifiedName}: a label key, an optional DNS subdomain prefix and a name part.
   *
   * @param value the key
   * @return apimachinery's error texts; empty when valid
   */
  public static List<String> qualifiedName(String value) {
    requireNonNull(value, "value");
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        if (byteLength(prefix) > 253) {
          errs.add("prefix part must be no more than 253 bytes");
        }
        if (!isDns1123Subdomain(prefix)) {
          errs.add("prefix part " + regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT,
              "example.com"));
        }
      }
    } else {
      errs.add("a valid label key " + regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name",
          "123-abc") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (byteLength(name) > 63) {
      errs.add("name part must be no more than 63 bytes");
    }
    if (!isLabelKeyName(name)) {
      errs.add("name part " + regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name",
          "123-abc"));
    }
    return errs;
  }

  /**
   * {@code IsValidLabelValue}: empty, or at most 63 bytes of label-key characters.
   *
   * @param value the label value
   * @return apimachinery's error texts; empty when valid
   */
  public static List<String> labelValue(String value) {
    requireNonNull(value, "value");
    List<String> errs = new ArrayList<>();
    if (byteLength(value) > 63) {
      errs.add("must be no more than 63 bytes");
    }
    if (!(value.isEmpty() || isLabelKeyName(value))) {
      errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errs;
  }

  /**
   * apimachinery's {@code RegexError} text: {@code msg}, the examples if any, and the regular
   * expression.
   *
   * @param msg the leading message
   * @param regex the regular expression
   * @param examples valid examples
   * @return the text
   */
  public static String regexError(String msg, String regex, String... examples) {
    requireNonNull(msg, "msg");
    requireNonNull(regex, "regex");
    if (examples.length == 0) {
      return msg + " (regex used for validation is '" + regex + "')";
    }
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(regex).append("')").toString();
  }

  /**
   * Whether {@code value} matches apimachinery's DNS-1123 label expression
   * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} (length not checked). A character loop rather than the
   * expression: names are checked on every write, and a fresh JVM runs the regex engine slowly.
   *
   * @param value the text
   * @return whether it matches
   */
  public static boolean isDns1123Label(String value) {
    return labelRun(value, 0, value.length(), false);
  }

  /**
   * Whether {@code value} matches apimachinery's DNS-1123 subdomain expression: DNS-1123 labels
   * joined by dots (length not checked).
   *
   * @param value the text
   * @return whether it matches
   */
  public static boolean isDns1123Subdomain(String value) {
    int start = 0;
    int n = value.length();
    for (int i = 0; i <= n; i++) {
      if (i == n || value.charAt(i) == '.') {
        if (!labelRun(value, start, i, false)) {
          return false;
        }
        start = i + 1;
      }
    }
    return true;
  }

  /**
   * Whether {@code value} matches the name part of a label key,
   * {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]} (length not checked).
   *
   * @param value the text
   * @return whether it matches
   */
  public static boolean isLabelKeyName(String value) {
    return labelRun(value, 0, value.length(), true);
  }

  /**
   * {@code [from, to)} is non-empty, starts and ends with an alphanumeric character and holds
   * only those and {@code -} (lower case only unless {@code labelKey}, which also allows upper
   * case, {@code _} and {@code .}).
   */
  private static boolean labelRun(String s, int from, int to, boolean labelKey) {
    if (from >= to || !alphanumeric(s.charAt(from), labelKey)
        || !alphanumeric(s.charAt(to - 1), labelKey)) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = s.charAt(i);
      if (!(alphanumeric(c, labelKey) || c == '-' || labelKey && (c == '_' || c == '.'))) {
        return false;
      }
    }
    return true;
  }

  private static boolean alphanumeric(char c, boolean upperCase) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || upperCase && c >= 'A' && c <= 'Z';
  }

  /**
   * The length of {@code s} in UTF-8 bytes, as Go's {@code len} counts a string, without encoding
   * it.
   *
   * @param s the text
   * @return the number of bytes
   */
  public static int utf8Length(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          bytes++;
        } else if (Character.isHighSurrogate(c) && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          bytes += 2;
          i++;
        } else {
          // a lone surrogate is encoded as '?' by String.getBytes, one byte
          bytes += Character.isSurrogate(c) ? 0 : 2;
        }
      }
    }
    return bytes;
  }

  // Go's len() counts bytes.
  private static int byteLength(String s) {
    return utf8Length(s);
  }
}
