/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Assertions on the next events of a watch, waiting for each up to a timeout (default 10 s) and
 * never sleeping; {@code BOOKMARK} events are skipped. Obtain from {@link ApiServerAssertions}.
 * Consumes the events it checks.
 */
public final class WatchAssert {
  private final ApiWatch watch;
  private Duration timeout = Duration.ofSeconds(10);

  WatchAssert(ApiWatch watch) {
    this.watch = watch;
  }

  /** How long to wait for each event. */
  public WatchAssert within(Duration eachEvent) {
    this.timeout = eachEvent;
    return this;
  }

  /** Asserts the next events have these types ({@code ADDED}, {@code MODIFIED}, ...), in order. */
  public WatchAssert emits(String... types) {
    List<String> seen = new ArrayList<>();
    for (String type : types) {
      ApiWatchEvent e = next(types.length, seen);
      seen.add(e.type());
      if (!e.type().equals(type)) {
        throw new AssertionError("expected events " + List.of(types) + " but got " + seen);
      }
    }
    return this;
  }

  /**
   * Asserts the next events are these, each written {@code TYPE name} ({@code "ADDED a"},
   * {@code "DELETED b"}), in order.
   */
  public WatchAssert emitsEvents(String... typeAndNames) {
    List<String> seen = new ArrayList<>();
    for (String expected : typeAndNames) {
      ApiWatchEvent e = next(typeAndNames.length, seen);
      String got = e.type() + " " + Nested.str(e.object(), "metadata", "name");
      seen.add(got);
      if (!got.equals(expected)) {
        throw new AssertionError("expected events " + List.of(typeAndNames) + " but got " + seen);
      }
    }
    return this;
  }

  private ApiWatchEvent next(int expected, List<String> seen) {
    try {
      while (true) {
        Optional<ApiWatchEvent> e = watch.poll(timeout);
        if (e.isEmpty()) {
          throw new AssertionError("expected " + expected + " events but got " + seen
              + (watch.isClosed() ? " before the watch ended" : " within " + timeout + " each"));
        }
        if (!e.get().type().equals("BOOKMARK")) {
          return e.get();
        }
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for watch events", ie);
    }
  }
}
