/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

/**
 * Removes paths from field sets before they are recorded, like structured-merge-diff's
 * {@code fieldpath.Filter} (used for fields that are never owned, such as reset fields).
 * Implementations must be thread-safe and return a subset of their input.
 */
@FunctionalInterface
public interface FieldSetFilter {
  /**
   * Filters a set.
   *
   * @param set the paths about to be recorded
   * @return a subset of {@code set}
   */
  FieldSet apply(FieldSet set);

  /**
   * Removes every path of {@code excluded} and everything below those paths (SMD's exclude filter).
   *
   * @param excluded the paths to drop with their descendants
   * @return the filter
   */
  static FieldSetFilter exclude(FieldSet excluded) {
    requireNonNull(excluded, "excluded");
    return set -> set.recursiveDifference(excluded);
  }

  /**
   * Keeps everything.
   *
   * @return the identity filter
   */
  static FieldSetFilter none() {
    return set -> set;
  }
}
