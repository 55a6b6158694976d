/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.fields.FieldSelector;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/** Waits for what the aggregation controller writes: on a watch, never by sleeping. */
final class ClusterRoleWaits {
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private ClusterRoleWaits() {}

  /**
   * The ClusterRole {@code name} once {@code condition} holds for it; watched from its current
   * state, so the write that makes it true ends the wait.
   *
   * @throws AssertionError naming the last state seen if that takes longer than {@link #TIMEOUT}
   */
  static MapValue await(ApiServer api, String name, Predicate<MapValue> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    try (ApiWatch w = api.watch(ApiRequest.builder(ApiRequest.Verb.WATCH, Bootstrap.CLUSTER_ROLES)
        .fieldSelector(FieldSelector.equal("metadata.name", name)).build())) {
      MapValue last = null;
      long left;
      while ((left = deadline - System.nanoTime()) > 0) {
        Optional<ApiWatchEvent> e = w.poll(Duration.ofNanos(left));
        if (e.isPresent() && !e.get().type().equals("DELETED")) {
          last = e.get().object();
          if (condition.test(last)) {
            return last;
          }
        }
      }
      throw new AssertionError("ClusterRole " + name + " did not reach the expected state within "
          + TIMEOUT + "; last seen: " + last);
    }
  }
}
