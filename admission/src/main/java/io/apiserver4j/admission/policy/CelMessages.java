/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-java's runtime messages in the words of cel-go, whose texts kube-apiserver returns
 * (cel-go reports no position, and a missing key or a selection on null as
 * {@code no such key: <name>}).
 */
final class CelMessages {
  private static final Pattern POSITION = Pattern.compile("^evaluation error at <input>:\\d+: ");
  private static final Pattern MISSING_KEY =
      Pattern.compile("^key '(.*)' is not present in map\\.$");
  private static final Pattern NOT_SELECTABLE = Pattern.compile(
      "^Error resolving field '(.*)'\\. Field selections must be performed on messages or"
          + " maps\\.$");

  private CelMessages() {}

  static String kube(String message) {
    if (message == null) {
      return "";
    }
    String m = POSITION.matcher(message).replaceFirst("");
    Matcher k = MISSING_KEY.matcher(m);
    if (k.matches()) {
      return "no such key: " + k.group(1);
    }
    Matcher s = NOT_SELECTABLE.matcher(m);
    if (s.matches()) {
      return "no such key: " + s.group(1);
    }
    if (m.startsWith("Index out of bounds: ")) {
      return "index out of bounds: " + m.substring("Index out of bounds: ".length());
    }
    return m;
  }
}
