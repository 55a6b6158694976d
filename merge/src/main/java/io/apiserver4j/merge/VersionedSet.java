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
 */
public record VersionedSet(FieldSet set, String apiVersion, boolean applied) {
  public VersionedSet {
    requireNonNull(set, "set");
    requireNonNull(apiVersion, "apiVersion");
  }
}
