/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The warnings a request raises, in order and without repeats; confined to its thread. */
final class Warnings {
  private final Set<String> texts = new LinkedHashSet<>();

  void add(String warning) {
    texts.add(warning);
  }

  void addAll(List<String> warnings) {
    texts.addAll(warnings);
  }

  List<String> list() {
    return List.copyOf(texts);
  }
}
