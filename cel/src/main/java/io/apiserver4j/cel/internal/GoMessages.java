/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-java's evaluation messages in the words of cel-go, whose texts kube-apiserver returns:
 * cel-go reports no position, a missing key (selected or indexed) or a selection on a non-map as
 * {@code no such key: <name>}, and arithmetic faults as {@code integer overflow} and
 * {@code division by zero}. Messages cel-java shares with cel-go pass through unchanged.
 */
final class GoMessages {
  private static final Pattern POSITION = Pattern.compile("^evaluation error at <input>:\\d+: ");
  private static final Pattern MISSING_KEY =
      Pattern.compile("^key '(.*)' is not present in map\\.$", Pattern.DOTALL);
  private static final Pattern NOT_SELECTABLE = Pattern.compile(
      "^Error resolving field '(.*)'\\. Field selections must be performed on messages or"
          + " maps\\.$", Pattern.DOTALL);

  private GoMessages() {}

  /**
   * The message of a failed evaluation. cel-java reports a map indexed with a key it does not
   * hold by the bare key; cel-go says {@code no such key: <key>}.
   */
  static String of(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof dev.cel.common.exceptions.CelAttributeNotFoundException a
          && a.getMessage() != null && !MISSING_KEY.matcher(a.getMessage()).matches()
          && !NOT_SELECTABLE.matcher(a.getMessage()).matches()
          && !a.getMessage().startsWith("No such attribute")) {
        return "no such key: " + a.getMessage();
      }
    }
    return of(e.getMessage());
  }

  static String of(String message) {
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
    return switch (m) {
      case "long overflow", "integer overflow" -> "integer overflow";
      case "/ by zero" -> "division by zero";
      default -> m;
    };
  }
}
