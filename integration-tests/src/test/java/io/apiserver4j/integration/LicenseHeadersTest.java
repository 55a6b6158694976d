/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java source of every module starts with the Apache-2.0 SPDX header, as published
 * sources jars must say their licence. {@code scripts/license-headers} adds it where missing.
 */
class LicenseHeadersTest {
  private static final String SPDX = "SPDX-License-Identifier: Apache-2.0";
  private static final int HEADER_LINES = 5;

  @Test
  void everyJavaSourceCarriesTheApacheSpdxHeader() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> sources;
    try (Stream<Path> modules = Files.list(root)) {
      sources = modules.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))
          && Files.isDirectory(d.resolve("src")))
          .flatMap(d -> javaFiles(d.resolve("src")))
          .toList();
    }
    assertThat(sources).hasSizeGreaterThan(100);
    List<String> missing = sources.stream().filter(p -> !hasHeader(p))
        .map(p -> root.relativize(p).toString()).sorted().toList();
    assertThat(missing).as("sources without the licence header (run scripts/license-headers)")
        .isEmpty();
  }

  private static Stream<Path> javaFiles(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean hasHeader(Path file) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      return lines.limit(HEADER_LINES).anyMatch(l -> l.contains(SPDX));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
