/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.ttl;

/**
 * kube's {@code ttlBoundaries} and the counting of {@code addNode}/{@code deleteNode}: the
 * cluster-size intervals overlap, so a cluster near a boundary does not flip between two TTLs;
 * the step moves up when the count exceeds the interval's maximum and down when it falls below
 * its minimum. Thread-safe.
 */
final class TtlBoundaries {
  private record Boundary(int sizeMin, int sizeMax, int ttlSeconds) {}

  private static final Boundary[] BOUNDARIES = {
      new Boundary(0, 100, 0),
      new Boundary(90, 500, 15),
      new Boundary(450, 1000, 30),
      new Boundary(900, 2000, 60),
      new Boundary(1800, Integer.MAX_VALUE, 300),
  };

  private int nodeCount;
  private int step;
  private int desiredTtlSeconds;

  TtlBoundaries() {}

  /** A state as kube's tests set it up: a count, a step and its desired TTL. */
  TtlBoundaries(int nodeCount, int step, int desiredTtlSeconds) {
    this.nodeCount = nodeCount;
    this.step = step;
    this.desiredTtlSeconds = desiredTtlSeconds;
  }

  synchronized void nodeAdded() {
    nodeCount++;
    if (nodeCount > BOUNDARIES[step].sizeMax()) {
      step++;
      desiredTtlSeconds = BOUNDARIES[step].ttlSeconds();
    }
  }

  synchronized void nodeDeleted() {
    nodeCount--;
    if (nodeCount < BOUNDARIES[step].sizeMin()) {
      step--;
      desiredTtlSeconds = BOUNDARIES[step].ttlSeconds();
    }
  }

  synchronized int desiredTtlSeconds() {
    return desiredTtlSeconds;
  }
}
