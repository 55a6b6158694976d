/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

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
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist"
      + " of lower case alphanumeric characters, '-' or '.', and must start and end with an"
      + " alphanumeric character";
  private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern LABEL_KEY = Pattern.compile(LABEL_KEY_FMT);
  private static final String LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_'"
      + " or '.', and must start and end with an alphanumeric character";
  private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
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
        if (!DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
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
    if (!LABEL_KEY.matcher(name).matches()) {
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
    if (!LABEL_VALUE.matcher(value).matches()) {
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

  // Go's len() counts bytes.
  private static int byteLength(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
