/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import java.util.List;

/**
 * The {@code dryRun} option of a write, as the server carries it: parsed once at the edge
 * ({@link QueryParameters} rejects every value but {@code All} with kube's 422) and then a plain
 * value. A dry run runs everything a real write runs — defaulting, admission, validation, the
 * precondition and conflict checks — but never persists.
 */
public enum DryRun {
  /** A normal write. */
  NONE,
  /** Everything runs except the storage write ({@code dryRun=All}). */
  ALL;

  /** The only query value kube-apiserver supports. */
  public static final String ALL_VALUE = "All";

  /** Whether this is {@link #ALL}. */
  public boolean isDryRun() {
    return this == ALL;
  }

  /** The values as sent on the wire: {@code []} or {@code ["All"]}. */
  public List<String> wireValues() {
    return this == ALL ? List.of(ALL_VALUE) : List.of();
  }
}
