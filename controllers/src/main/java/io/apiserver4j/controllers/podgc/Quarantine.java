/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podgc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code orphaned_pods_nodes} delaying queue: a Node name a Pod is bound to but the
 * cache does not know waits {@link #TIME} of the server clock (kube's {@code quarantineTime})
 * before the Node is looked up with a GET, in case the informer has not seen it yet. Adding a
 * name already waiting keeps the earlier time, as client-go's delaying queue does. Used by the
 * single gc loop only.
 */
final class Quarantine {
  /** kube's {@code quarantineTime}. */
  static final Duration TIME = Duration.ofSeconds(40);

  private final Map<String, Instant> ready = new HashMap<>();

  /** Puts {@code node} in quarantine from {@code now} unless it is already waiting. */
  void add(String node, Instant now) {
    ready.merge(node, now.plus(TIME), (a, b) -> a.isBefore(b) ? a : b);
  }

  /** The names whose quarantine is over at {@code now}, taken out. */
  List<String> takeReady(Instant now) {
    List<String> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, Instant>> it = ready.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Instant> e = it.next();
      if (!e.getValue().isAfter(now)) {
        out.add(e.getKey());
        it.remove();
      }
    }
    return out;
  }

  /** Forgets every name. */
  void clear() {
    ready.clear();
  }

  /** How many names wait. */
  int size() {
    return ready.size();
  }
}
