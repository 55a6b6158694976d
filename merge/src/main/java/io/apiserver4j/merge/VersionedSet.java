/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldSet;

/**
 * The fields one manager owns, the API version they are expressed in, and whether they were last
 * written by an apply ({@code applied}) or by an update.
 *
 * @param set the owned fields
 * @param apiVersion the version the fields are expressed in
 * @param applied whether an apply last wrote them
 */
public record VersionedSet(FieldSet set, String apiVersion, boolean applied) {
  /**
   * Checks that no component is null.
   *
   * @param set see the record component
   * @param apiVersion see the record component
   * @param applied see the record component
   * @throws NullPointerException when a component is null
   */
  public VersionedSet {
    requireNonNull(set, "set");
    requireNonNull(apiVersion, "apiVersion");
  }
}
