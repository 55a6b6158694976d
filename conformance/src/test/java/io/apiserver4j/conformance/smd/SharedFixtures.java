/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import io.apiserver4j.conformance.ConformanceRunner;
import io.apiserver4j.conformance.Fixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Locates and loads the fixtures under {@code ../shared/conformance}. */
final class SharedFixtures {
  private SharedFixtures() {}

  static Path dir(String sub) {
    String p = System.getProperty("apiserver4j.shared");
    Path root = p != null ? Path.of(p) : Path.of("../shared");
    Path dir = root.resolve("conformance").resolve(sub);
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("fixture directory not found: " + dir.toAbsolutePath());
    }
    return dir;
  }

  static List<Path> files(String sub) {
    return ConformanceRunner.discover(dir(sub));
  }

  static Fixture load(Path file) {
    try {
      return ConformanceRunner.load(file, file.getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
