/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code UIDTrackingControllerExpectations}: per set, how many Pod creations and which
 * Pod deletions its last sync still waits to see in the informer; a set is synced again only
 * once they are all seen or {@value #TIMEOUT_MINUTES} minutes of the server clock have passed.
 * Thread-safe.
 */
public final class Expectations {
  public static final long TIMEOUT_MINUTES = 5;

  private static final class Expectation {
    long add;
    long del;
    Instant at;
    final Set<String> deleting = new HashSet<>();
  }

  private final Clock clock;
  private final Map<String, Expectation> byKey = new HashMap<>();

  public Expectations(Clock clock) {
    this.clock = clock;
  }

  /** {@code SatisfiedExpectations}: none recorded, all seen, or expired. */
  public synchronized boolean satisfied(String key) {
    Expectation e = byKey.get(key);
    if (e == null) {
      return true;
    }
    if (e.add <= 0 && e.del <= 0) {
      return true;
    }
    return Duration.between(e.at, clock.instant()).compareTo(
        Duration.ofMinutes(TIMEOUT_MINUTES)) > 0;
  }

  /** {@code ExpectCreations}: the next {@code count} Pod additions are this sync's. */
  public synchronized void expectCreations(String key, int count) {
    Expectation e = new Expectation();
    e.add = count;
    e.at = clock.instant();
    byKey.put(key, e);
  }

  /** {@code ExpectDeletions}: the deletions of the Pods {@code podKeys} are this sync's. */
  public synchronized void expectDeletions(String key, Iterable<String> podKeys) {
    Expectation e = new Expectation();
    for (String p : podKeys) {
      e.deleting.add(p);
    }
    e.del = e.deleting.size();
    e.at = clock.instant();
    byKey.put(key, e);
  }

  /** {@code CreationObserved}: one expected creation was seen (or will never be). */
  public synchronized void creationObserved(String key) {
    Expectation e = byKey.get(key);
    if (e != null) {
      e.add--;
    }
  }

  /** {@code DeletionObserved}: the Pod {@code podKey} was seen deleted, once per expectation. */
  public synchronized void deletionObserved(String key, String podKey) {
    Expectation e = byKey.get(key);
    if (e != null && e.deleting.remove(podKey)) {
      e.del--;
    }
  }

  /** Forgets every set's expectations: a reset in place, after which none is awaited. */
  public synchronized void clear() {
    byKey.clear();
  }

  /** {@code DeleteExpectations}: forgets the set. */
  public synchronized void delete(String key) {
    byKey.remove(key);
  }
}
