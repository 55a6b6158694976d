/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Selects the item of an associative list whose key fields have these values. The fields are
 * kept sorted by name (Go byte order; the sort is stable), whatever order they are given in, as
 * structured-merge-diff keeps them. A key normally has at least one field; the empty key exists
 * only because FieldsV1 can spell it ({@code k:{}}).
 *
 * @param fields the key fields, sorted by name
 */
public record Key(List<KeyField> fields) implements PathElement {
  private static final Comparator<KeyField> BY_NAME =
      (a, b) -> Values.compareStrings(a.name(), b.name());

  /**
   * Sorts the fields by name (stably) and copies them.
   *
   * @param fields see the record component
   * @throws NullPointerException when the list or a field is null
   */
  public Key {
    requireNonNull(fields, "fields");
    if (!isSorted(fields)) {
      List<KeyField> sorted = new ArrayList<>(fields);
      sorted.sort(BY_NAME);
      fields = sorted;
    }
    fields = List.copyOf(fields);
  }

  private static boolean isSorted(List<KeyField> fields) {
    for (int i = 1; i < fields.size(); i++) {
      if (BY_NAME.compare(fields.get(i - 1), fields.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Kind kind() {
    return Kind.KEY;
  }

  @Override
  public String toPathString() {
    StringBuilder sb = new StringBuilder();
    Elements.appendPathString(sb, this);
    return sb.toString();
  }

  @Override
  public String toString() {
    return toPathString();
  }
}
