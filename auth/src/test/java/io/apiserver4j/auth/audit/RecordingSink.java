/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import java.time.Duration;
import java.time.Instant;
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

  /** The first event matching, waiting for it to arrive. */
  synchronized AuditEvent await(Predicate<AuditEvent> wanted) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    while (true) {
      for (AuditEvent e : events) {
        if (wanted.test(e)) {
          return e;
        }
      }
      long left = Duration.between(Instant.now(), deadline).toMillis();
      if (left <= 0) {
        throw new AssertionError("no matching audit event; got " + events.stream()
            .map(e -> e.stage() + " " + e.verb() + " " + e.requestUri()).toList());
      }
      wait(left);
    }
  }

  /** The events of one request, in the order written. */
  synchronized List<AuditEvent> of(String auditId) {
    return events.stream().filter(e -> e.auditId().equals(auditId)).toList();
  }
}
