/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Keeps every event; tests wait on the events they expect instead of sleeping. */
final class RecordingSink implements AuditSink {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private final List<AuditEvent> events = new ArrayList<>();

  @Override
  public synchronized void process(AuditEvent event) {
    events.add(event);
    notifyAll();
  }

  synchronized List<AuditEvent> all() {
    return List.copyOf(events);
  }

  /**
   * The first event matching, waiting for it to arrive: each wait is for the next event, at most
   * {@link #PATIENCE} (the monitor is notified on every event; a wake-up without one is
   * allowed twice, as Java permits spurious wake-ups).
   */
  synchronized AuditEvent await(Predicate<AuditEvent> wanted) throws InterruptedException {
    int seen = 0;
    int idle = 0;
    while (true) {
      for (; seen < events.size(); seen++) {
        if (wanted.test(events.get(seen))) {
          return events.get(seen);
        }
      }
      wait(PATIENCE.toMillis());
      idle = seen == events.size() ? idle + 1 : 0;
      if (idle == 3) {
        throw new AssertionError("no matching audit event; got " + events.stream()
            .map(e -> e.stage() + " " + e.verb() + " " + e.requestUri()).toList());
      }
    }
  }

  /** The events of one request, in the order written. */
  synchronized List<AuditEvent> of(String auditId) {
    return events.stream().filter(e -> e.auditId().equals(auditId)).toList();
  }
}
