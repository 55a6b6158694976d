/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import io.apiserver4j.core.Value;
import java.util.List;

/**
 * A map variable whose entries are computed when an expression first reads them, like kube's
 * lazy {@code variables} of admission policies: an entry that is never read is never computed,
 * so its failure cannot fail an expression that does not use it. Implementations decide about
 * caching; they must be safe to call from the evaluating thread only.
 */
public interface CelLazyMap {
  /**
   * The keys, in declaration order.
   *
   * @return the keys an expression may read, whether computed yet or not
   */
  List<String> keys();

  /**
   * The value of {@code key}, computed on first use.
   *
   * @param key one of {@link #keys()}
   * @return the entry's value
   * @throws CelException of kind {@link CelException.Kind#EVALUATION} when it cannot be computed;
   *     the expression reading it fails with that message
   */
  Value get(String key);
}
