/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;

/**
 * NodeResourcesFit's default scoring strategy, {@code LeastAllocated} on CPU and memory with
 * weight 1 each: per resource {@code (allocatable - requested) * 100 / allocatable} over the
 * non-zero requests of the Node's Pods plus this one, then the weighted mean.
 */
final class Scores {
  private static final long MAX_NODE_SCORE = 100;

  private Scores() {}

  static long leastAllocated(MapValue pod, NodeInfo node) {
    Resources want = Resources.nonZeroRequests(pod);
    long total = 0;
    for (String r : new String[] {"cpu", "memory"}) {
      long capacity = node.allocatable(r);
      long requested = node.nonZeroRequested.get(r) + want.get(r);
      total += capacity == 0 || requested > capacity ? 0
          : (capacity - requested) * MAX_NODE_SCORE / capacity;
    }
    return total / 2;
  }
}
