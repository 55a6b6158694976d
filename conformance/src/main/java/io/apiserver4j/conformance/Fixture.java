/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.nio.file.Path;

/**
 * One parsed fixture file.
 *
 * @param file where it was read from
 * @param name the file's path relative to the directory being run, with {@code /} separators;
 *     used in reports
 * @param content the parsed document (always a map at the top level)
 */
public record Fixture(Path file, String name, MapValue content) {
  public Fixture {
    requireNonNull(file, "file");
    requireNonNull(name, "name");
    requireNonNull(content, "content");
  }
}
