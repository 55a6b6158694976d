/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.authz.AuditStart;
import io.apiserver4j.authz.Auditor;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's auditing for an {@code HttpApiServer}: each request is matched against the
 * {@link AuditPolicy}, and its events (RequestReceived, ResponseStarted for watches,
 * ResponseComplete or Panic, minus the omitted stages) go to every {@link AuditSink}.
 *
 * <pre>{@code
 * try (AuditLogSink log = AuditLogSink.builder(Path.of("audit.log")).build()) {
 *   HttpApiServer.builder(api).auditor(Audit.of(AuditPolicy.read(policyFile), log)).start();
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class Audit implements Auditor {
  private final AuditPolicy policy;
  private final List<AuditSink> sinks;
  private final Clock clock;

  private Audit(AuditPolicy policy, List<AuditSink> sinks, Clock clock) {
    this.policy = policy;
    this.sinks = List.copyOf(sinks);
    this.clock = clock;
  }

  /** Audits by {@code policy} into {@code sinks}, stage timestamps from the system clock. */
  public static Audit of(AuditPolicy policy, AuditSink... sinks) {
    return builder(policy).sinks(List.of(sinks)).build();
  }

  public static Builder builder(AuditPolicy policy) {
    return new Builder(requireNonNull(policy, "policy"));
  }

  @Override
  public AuditRecorder begin(AuditStart start) {
    AuditPolicy.Decision decision = policy.decide(start.attributes());
    if (decision.level() == AuditLevel.NONE) {
      return AuditRecorder.NONE;
    }
    return EventRecorder.start(start, decision, sinks, clock);
  }

  /** Mutable builder of {@link Audit}; not thread-safe. */
  public static final class Builder {
    private final AuditPolicy policy;
    private final List<AuditSink> sinks = new ArrayList<>();
    private Clock clock = Clock.systemUTC();

    private Builder(AuditPolicy policy) {
      this.policy = policy;
    }

    public Builder sink(AuditSink sink) {
      sinks.add(requireNonNull(sink, "sink"));
      return this;
    }

    public Builder sinks(List<AuditSink> more) {
      more.forEach(this::sink);
      return this;
    }

    /** The clock of stage timestamps (the request's arrival comes from the HTTP layer). */
    public Builder clock(Clock c) {
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /** @throws IllegalStateException without a sink */
    public Audit build() {
      if (sinks.isEmpty()) {
        throw new IllegalStateException("Audit needs at least one sink");
      }
      return new Audit(policy, sinks, clock);
    }
  }
}
