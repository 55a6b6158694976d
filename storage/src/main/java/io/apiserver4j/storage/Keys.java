/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

/** Key helpers shared by the key records. */
final class Keys {
  private Keys() {}

  static void checkComponent(String what, String value, boolean mayBeEmpty) {
    if (!mayBeEmpty && value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    if (value.indexOf('/') >= 0) {
      throw new IllegalArgumentException(what + " must not contain '/': " + value);
    }
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " must not contain NUL: " + value);
    }
  }

  static String resourcePrefix(String group, String resource) {
    return group.isEmpty() ? "/registry/" + resource + "/" : "/registry/" + group + "/" + resource + "/";
  }
}
