/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * When an {@link EtcdStore} compacts etcd's history. Compaction bounds etcd's size; it also ends
 * what reaches back past it: watches from older resource versions and continue tokens issued
 * before it get 410 Expired, as in kube-apiserver.
 *
 * <p>Compaction is cluster-wide in etcd. Stores sharing etcd and key prefix coordinate
 * {@link Interval} compactions through the key {@code <prefix>/compact_rev_key} as
 * kube-apiserver's compactor does, so only one of them compacts per period.
 */
public sealed interface CompactionPolicy
    permits CompactionPolicy.None, CompactionPolicy.EveryRevisions, CompactionPolicy.Interval {

  /**
   * {@return a policy that never compacts} etcd's own {@code --auto-compaction-*} or an operator
   * may still do so.
   */
  static CompactionPolicy none() {
    return None.INSTANCE;
  }

  /**
   * {@return the {@link EveryRevisions} policy}
   *
   * @param revisions how much history to keep, at least 1
   * @throws IllegalArgumentException when {@code revisions} is less than 1
   */
  static CompactionPolicy everyRevisions(long revisions) {
    return new EveryRevisions(revisions);
  }

  /**
   * {@return the {@link Interval} policy} kube-apiserver's default period is 5 minutes.
   *
   * @param period the time between compactions, positive
   * @throws IllegalArgumentException when {@code period} is zero or negative
   */
  static CompactionPolicy interval(Duration period) {
    return new Interval(period);
  }

  /** No compaction. */
  enum None implements CompactionPolicy {
    /** The only value. */
    INSTANCE
  }

  /**
   * Each time this store's writes have moved the revision {@code revisions} past the last
   * compaction point, compact to {@code revision - revisions}: the latest {@code revisions}
   * revisions always stay watchable. Runs in the background; a write never waits for it.
   *
   * @param revisions how much history to keep, at least 1
   */
  record EveryRevisions(long revisions) implements CompactionPolicy {
    /**
     * Checks the bound.
     *
     * @param revisions how much history to keep, at least 1
     * @throws IllegalArgumentException when {@code revisions} is less than 1
     */
    public EveryRevisions {
      if (revisions < 1) {
        throw new IllegalArgumentException("revisions must be at least 1: " + revisions);
      }
    }
  }

  /**
   * kube-apiserver's policy: every {@code period} (measured with the store's clock), compact to
   * the revision that was current one period earlier, so at least one period of history stays
   * watchable. The first period only records the revision.
   *
   * @param period the time between compactions, positive
   */
  record Interval(Duration period) implements CompactionPolicy {
    /**
     * Checks the period.
     *
     * @param period the time between compactions, positive
     * @throws IllegalArgumentException when {@code period} is zero or negative
     */
    public Interval {
      requireNonNull(period, "period");
      if (period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException("period must be positive: " + period);
      }
    }
  }
}
