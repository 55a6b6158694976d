/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

/**
 * kube's {@code GetOptions}: the options of a GET.
 *
 * @param resourceVersion the {@code resourceVersion} as sent; empty for the latest state,
 *     {@code "0"} for any state; the server parses it (a bad value is kube's 500 of the
 *     versioner)
 */
public record GetOptions(String resourceVersion) implements VerbOptions {
  private static final GetOptions LATEST = new GetOptions("");

  /** Checks the component. */
  public GetOptions {
    requireNonNull(resourceVersion, "resourceVersion");
  }

  /** The latest state (no {@code resourceVersion}). */
  public static GetOptions latest() {
    return LATEST;
  }

  /** The state at least as new as {@code resourceVersion}. */
  public static GetOptions of(String resourceVersion) {
    return new GetOptions(resourceVersion);
  }
}
