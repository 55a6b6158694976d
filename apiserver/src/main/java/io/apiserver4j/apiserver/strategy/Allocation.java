/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Optional;

/** What an {@link Allocator} allocates from. */
public interface Allocation {
  /** Every stored object of the resource, in all namespaces, but the one being written. */
  List<MapValue> others();

  /** Whether the request is a dry run (kube's dry-run allocators hold nothing). */
  boolean dryRun();

  /**
   * A server setting by its kube-apiserver flag name (e.g.
   * {@code service-cluster-ip-range}); empty when the server has no value for it.
   */
  Optional<String> setting(String flag);
}
