/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import java.util.Optional;

/**
 * How the items of a list or map relate to each other, as in structured-merge-diff's schema.
 *
 * <p>Lists must be {@link #ATOMIC} or {@link #ASSOCIATIVE}; maps are {@link #ATOMIC} or
 * granular: {@link #SEPARABLE} (the default, "granular" in OpenAPI extensions) or, as SMD's own
 * tests write it, {@link #ASSOCIATIVE}, which means the same for a map.
 */
public enum ElementRelationship {
  /** The container is one leaf: a single manager owns it as a whole. */
  ATOMIC("atomic"),
  /** List items are identified by their key fields (or, for scalars, by value: a set). */
  ASSOCIATIVE("associative"),
  /** Map entries are independent and can be owned separately. */
  SEPARABLE("separable");

  private final String smdName;

  ElementRelationship(String smdName) {
    this.smdName = smdName;
  }

  /**
   * The spelling used in SMD schema YAML.
   *
   * @return {@code atomic}, {@code associative} or {@code separable}
   */
  public String smdName() {
    return smdName;
  }

  /**
   * Parses the SMD spelling ({@code atomic}, {@code associative}, {@code separable}).
   *
   * @param name the spelling
   * @return the relationship; empty for any other spelling
   */
  public static Optional<ElementRelationship> fromSmdName(String name) {
    for (ElementRelationship r : values()) {
      if (r.smdName.equals(name)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }
}
