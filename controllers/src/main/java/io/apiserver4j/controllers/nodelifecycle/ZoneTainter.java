/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.nodelifecycle;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One zone's queue of Nodes to taint {@code NoExecute}: kube's {@code RateLimitedTimedQueue}
 * (pkg/controller/nodelifecycle/scheduler) with its token bucket limiter (burst 1, kube's
 * {@code EvictionRateLimiterBurst}) running on the server clock instead of wall time. A rate of
 * 0 or less never lets a Node through (kube's never-accepting fake limiter). Used by one thread.
 */
final class ZoneTainter {
  /** What an attempt at a Node came to: done, or to be tried again after {@code retryAfter}. */
  record Result(boolean done, Duration retryAfter) {
    static final Result DONE = new Result(true, Duration.ZERO);
  }

  private record Entry(String node, String uid, Instant addedAt, Instant processAt, long seq) {}

  private final List<Entry> entries = new ArrayList<>();
  /**
   * kube's {@code UniqueQueue} set: a Node processed successfully leaves the queue but stays
   * here, so it is not queued again until {@link #remove} (Ready again, or its taint gone).
   */
  private final Set<String> members = new HashSet<>();
  private long seq;
  private double qps;
  private double tokens;
  private Instant last;

  ZoneTainter(double qps, Instant now) {
    this.qps = qps;
    this.tokens = 1;
    this.last = now;
  }

  /** The limiter's rate, per second of the clock. */
  double qps() {
    return qps;
  }

  /**
   * kube's {@code Add}: queues {@code node} unless it is queued or was processed since it was
   * last removed; whether it was added.
   */
  boolean add(String node, String uid, Instant now) {
    if (!members.add(node)) {
      return false;
    }
    entries.add(new Entry(node, uid, now, now, seq++));
    return true;
  }

  /** kube's {@code Remove}: forgets {@code node}; whether it was known. */
  boolean remove(String node) {
    entries.removeIf(e -> e.node().equals(node));
    return members.remove(node);
  }

  private Optional<Entry> head() {
    return entries.stream().min(Comparator.comparing(Entry::processAt)
        .thenComparingLong(Entry::seq));
  }

  /**
   * kube's {@code Try}: while the limiter lets one through and the head is due, hands the
   * head's Node to {@code action}; a done Node leaves the queue (not the set), another is
   * retried after the wait it asks for.
   */
  void tryProcess(Instant now, Function<String, Result> action) {
    Optional<Entry> head = head();
    while (head.isPresent()) {
      if (!tryAccept(now)) {
        return;
      }
      Entry e = head.get();
      if (now.isBefore(e.processAt())) {
        return;
      }
      Result r = action.apply(e.node());
      entries.remove(e);
      if (!r.done()) {
        entries.add(new Entry(e.node(), e.uid(), e.addedAt(),
            now.plus(r.retryAfter()).plusNanos(1), e.seq()));
      }
      head = head();
    }
  }

  /**
   * When {@link #tryProcess} may next let a Node through: the later of the head's time and the
   * limiter's next token; empty when nothing is queued or the limiter lets nothing through.
   */
  Optional<Instant> nextTry(Instant now) {
    Optional<Entry> head = head();
    if (head.isEmpty() || qps <= 0) {
      return Optional.empty();
    }
    refill(now);
    Instant token = tokens >= 1 ? now
        : now.plusNanos((long) Math.ceil((1 - tokens) / qps * 1e9));
    Instant due = head.get().processAt();
    return Optional.of(due.isAfter(token) ? due : token);
  }

  /**
   * kube's {@code SwapLimiter}: a new limiter of rate {@code newQps}, drained when the old one
   * had no token (so a burst is not given twice).
   */
  void swapLimiter(double newQps, Instant now) {
    if (newQps == qps) {
      return;
    }
    boolean drained = !tryAccept(now);
    qps = newQps;
    last = now;
    tokens = newQps <= 0 ? 0 : drained ? 0 : 1;
  }

  private void refill(Instant now) {
    if (qps > 0 && now.isAfter(last)) {
      double seconds = Duration.between(last, now).toNanos() / 1e9;
      tokens = Math.min(1, tokens + seconds * qps);
    }
    if (now.isAfter(last)) {
      last = now;
    }
  }

  private boolean tryAccept(Instant now) {
    if (qps <= 0) {
      return false;
    }
    refill(now);
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }
}
