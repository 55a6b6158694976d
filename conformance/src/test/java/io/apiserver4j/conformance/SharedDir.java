/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates {@code ../shared}, as the parent pom's surefire configuration passes it. */
final class SharedDir {
  private SharedDir() {}

  static Path get() {
    Path p = Path.of(System.getProperty("apiserver4j.shared", "../shared"));
    if (!Files.isDirectory(p)) {
      throw new IllegalStateException("shared directory not found: " + p.toAbsolutePath()
          + " (set -Dapiserver4j.shared)");
    }
    return p;
  }
}
