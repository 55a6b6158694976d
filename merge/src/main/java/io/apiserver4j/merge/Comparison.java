/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldSetFilter;

/**
 * The difference between two typed values (SMD's {@code Comparison}): fields only the right side
 * has ({@code added}), fields both have with different values ({@code modified}), and fields only
 * the left side has ({@code removed}). All three empty means the values are the same as far as
 * field ownership is concerned.
 *
 * @param added fields only the right side has
 * @param modified fields both sides have, with different values
 * @param removed fields only the left side has
 */
public record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
  private static final Comparison SAME = new Comparison(FieldSet.empty(), FieldSet.empty(), FieldSet.empty());

  /**
   * Checks that no component is null.
   *
   * @param added see the record component
   * @param modified see the record component
   * @param removed see the record component
   * @throws NullPointerException when a component is null
   */
  public Comparison {
    requireNonNull(added, "added");
    requireNonNull(modified, "modified");
    requireNonNull(removed, "removed");
  }

  /**
   * The comparison of equal values.
   *
   * @return the comparison with three empty sets
   */
  public static Comparison same() {
    return SAME;
  }

  /**
   * Whether nothing was added, modified or removed.
   *
   * @return true when all three sets are empty
   */
  public boolean isSame() {
    return added.isEmpty() && modified.isEmpty() && removed.isEmpty();
  }

  /**
   * This comparison without {@code fields} and everything below them, in all three sets.
   *
   * @param fields the fields to ignore
   * @return the reduced comparison; this one when {@code fields} is empty
   */
  public Comparison excludeFields(FieldSet fields) {
    requireNonNull(fields, "fields");
    if (fields.isEmpty()) {
      return this;
    }
    return new Comparison(
        added.recursiveDifference(fields),
        modified.recursiveDifference(fields),
        removed.recursiveDifference(fields));
  }

  /**
   * {@code filter} applied to all three sets.
   *
   * @param filter the filter
   * @return the filtered comparison
   */
  public Comparison filter(FieldSetFilter filter) {
    requireNonNull(filter, "filter");
    return new Comparison(added.filter(filter), modified.filter(filter), removed.filter(filter));
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (!modified.isEmpty()) {
      sb.append("- Modified Fields:\n").append(modified).append('\n');
    }
    if (!added.isEmpty()) {
      sb.append("- Added Fields:\n").append(added).append('\n');
    }
    if (!removed.isEmpty()) {
      sb.append("- Removed Fields:\n").append(removed).append('\n');
    }
    return sb.toString();
  }
}
