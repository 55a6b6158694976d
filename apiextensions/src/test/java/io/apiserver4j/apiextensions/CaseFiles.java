/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The {@code cases} of a YAML fixture beside the tests (a resource path relative to this
 * package), each a map with a {@code name}.
 */
public final class CaseFiles {
  private CaseFiles() {}

  public static List<MapValue> cases(String resource) {
    try (InputStream in = CaseFiles.class.getResourceAsStream(resource)) {
      MapValue doc = (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return ((ListValue) doc.getOrNull("cases")).items().stream()
          .map(MapValue.class::cast).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The cases as JUnit arguments (name, case). */
  public static Stream<Arguments> named(String resource) {
    return cases(resource).stream().map(c -> Arguments.of(Nested.str(c, "name"), c));
  }
}
