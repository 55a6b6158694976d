/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

/**
 * How a list interprets its resource version, after kube's {@code resourceVersionMatch}.
 *
 * <p>The HTTP layer maps kube's query parameters onto these: {@code resourceVersion} unset is
 * {@link #MOST_RECENT}; {@code resourceVersion=0} is {@link #NOT_OLDER_THAN} 0 (any state);
 * {@code resourceVersion=N} with {@code resourceVersionMatch=NotOlderThan} is
 * {@link #NOT_OLDER_THAN}; with {@code resourceVersionMatch=Exact} — or, as kube's legacy rule,
 * with a {@code limit} and no match — it is {@link #EXACT}; otherwise {@link #NOT_OLDER_THAN}.
 */
public enum ResourceVersionMatch {
  /** A consistent read of the latest state; the resource version is ignored. */
  MOST_RECENT,
  /**
   * A state at least as new as the resource version; this store returns the latest. A version
   * beyond the store's revision is a 504 Timeout ({@link StoreErrors#tooLargeResourceVersion}).
   */
  NOT_OLDER_THAN,
  /**
   * The state at exactly the resource version (which must be positive): a 410 Expired
   * ({@link StoreErrors#LIST_EXPIRED_MESSAGE}) if compacted, a 504 Timeout if in the future.
   */
  EXACT
}
