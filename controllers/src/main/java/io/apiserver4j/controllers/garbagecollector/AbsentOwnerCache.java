/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube's {@code ReferenceCache}: the owner identities recently verified absent, least recently
 * used dropped first, so that many dependents of one deleted owner cost one lookup.
 * Thread-safe.
 */
final class AbsentOwnerCache {
  /** kube-controller-manager's size. */
  static final int SIZE = 500;

  private final Map<ObjectReference, Boolean> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ObjectReference, Boolean> eldest) {
          return size() > SIZE;
        }
      };

  /** Forgets every owner: a reset in place may have restored them. */
  synchronized void clear() {
    cache.clear();
  }

  synchronized void add(ObjectReference r) {
    cache.put(r, Boolean.TRUE);
  }

  synchronized boolean has(ObjectReference r) {
    return cache.get(r) != null;
  }
}
