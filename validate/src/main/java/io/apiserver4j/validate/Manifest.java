/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.validate;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * One document to validate: an object of a manifest file (an item of a {@code List} counts as one)
 * with where it was found, or the reason it could not be read.
 *
 * @param source the file as the user named it ({@code STDIN} for {@code -}), as kubectl names it
 *     in its messages
 * @param line the 1-based line of the document's first content line
 * @param object the object; empty when the document could not be read
 * @param problem why the document could not be read (bad input); empty when {@code object} is set
 */
public record Manifest(String source, int line, Optional<MapValue> object,
    Optional<String> problem) {
  /**
   * Checks the components: exactly one of {@code object} and {@code problem} is present.
   *
   * @throws IllegalArgumentException when both or neither are present, or {@code line < 1}
   */
  public Manifest {
    requireNonNull(source, "source");
    requireNonNull(object, "object");
    requireNonNull(problem, "problem");
    if (object.isPresent() == problem.isPresent()) {
      throw new IllegalArgumentException("exactly one of object and problem: " + source + ":" + line);
    }
    if (line < 1) {
      throw new IllegalArgumentException("line must be at least 1: " + line);
    }
  }

  /** An object read from {@code source} at {@code line}. */
  static Manifest of(String source, int line, MapValue object) {
    return new Manifest(source, line, Optional.of(object), Optional.empty());
  }

  /** A document of {@code source} at {@code line} that could not be read. */
  static Manifest unreadable(String source, int line, String problem) {
    return new Manifest(source, line, Optional.empty(), Optional.of(problem));
  }

  /**
   * Where the document is, as {@code file:line}.
   *
   * @return the location
   */
  public String location() {
    return source + ":" + line;
  }
}
