/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates {@code ../shared} for tests (system property set by the parent pom's surefire config). */
final class SharedFiles {
  private SharedFiles() {}

  static Path root() {
    String p = System.getProperty("apiserver4j.shared");
    Path root = p != null ? Path.of(p) : Path.of("../shared");
    if (!Files.isDirectory(root)) {
      root = Path.of("../../shared");
    }
    if (!Files.isDirectory(root)) {
      throw new IllegalStateException("cannot find the shared directory (tried " + p + ")");
    }
    return root;
  }

  static String read(String relative) {
    try {
      return Files.readString(root().resolve(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
