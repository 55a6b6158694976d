/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Records a registry's changes as {@code "ADDED example.com/v1, Resource=widgets"} and lets a
 * test wait for one, whichever thread reports it.
 */
final class RegistryEvents implements RegistryListener {
  private final List<String> events = new ArrayList<>();

  static RegistryEvents of(ApiServer server) {
    RegistryEvents e = new RegistryEvents();
    server.registry().addListener(e);
    return e;
  }

  @Override
  public synchronized void onChange(Change change, ResourceDefinition definition) {
    events.add(change + " " + definition.resource());
    notifyAll();
  }

  synchronized List<String> events() {
    return List.copyOf(events);
  }

  /**
   * Waits until {@code event} was recorded (at least once).
   *
   * @return whether it was within {@code timeout}
   */
  boolean await(String event, Duration timeout) throws InterruptedException {
    return await(event, 1, timeout);
  }

  /** Waits until {@code event} was recorded {@code times} times. */
  synchronized boolean await(String event, int times, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (events.stream().filter(event::equals).count() < times) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
