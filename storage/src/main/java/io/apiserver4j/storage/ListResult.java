/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One page of a list.
 *
 * @param items the matching objects in key order ({@code namespace/name} by code point)
 * @param resourceVersion the revision the page was read at (for later pages, the first page's)
 * @param continueToken present if more objects may follow; pass it in {@link ListOptions}
 * @param remainingItemCount how many objects follow, present only with a continue token and
 *     when the selectors select everything (as kube)
 */
public record ListResult(List<StoredObject> items, long resourceVersion,
    Optional<String> continueToken, Optional<Long> remainingItemCount) {
  /**
   * Copies the items and checks that no optional is null.
   *
   * @param items see the record component
   * @param resourceVersion see the record component
   * @param continueToken see the record component
   * @param remainingItemCount see the record component
   * @throws NullPointerException when a component or an item is null
   */
  public ListResult {
    items = List.copyOf(items);
    requireNonNull(continueToken, "continueToken");
    requireNonNull(remainingItemCount, "remainingItemCount");
  }
}
