/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * client-go's {@code EventCorrelator} with its defaults (tools/record/events_cache.go), on a
 * given clock: an event that differs from 9 others of the last 10 minutes only by its message
 * becomes a {@code "(combined from similar events): "} event; an event seen before is counted
 * on the first one's name instead of written again; and a source may write 25 events about an
 * object at once, then one every 5 minutes. Each cache keeps its 4,096 most recently used keys.
 * Not thread-safe: its recorder serializes calls.
 */
final class EventCorrelator {
  static final int MAX_CACHE_ENTRIES = 4096;
  static final int AGGREGATE_MAX_EVENTS = 10;
  static final Duration AGGREGATE_INTERVAL = Duration.ofSeconds(600);
  static final int SPAM_BURST = 25;
  static final double SPAM_QPS = 1.0 / 300.0;
  static final String COMBINED_PREFIX = "(combined from similar events): ";

  private final Clock clock;
  private final Map<String, AggregateRecord> aggregates = lru();
  private final Map<String, Observation> observations = lru();
  private final Map<String, TokenBucket> spam = lru();

  EventCorrelator(Clock clock) {
    this.clock = clock;
  }

  /** The fields of an Event the correlator reads and rewrites. */
  record Event(String component, EventRecorder.InvolvedObject about, String type,
      String reason, String message, String name, Instant firstTimestamp,
      Instant lastTimestamp, long count) {
    /** kube's {@code getEventKey}: everything that makes two events the same event. */
    String key() {
      return component + about.kind() + about.namespace() + about.name()
          + about.uid() + about.apiVersion() + type + reason + message;
    }

    /** kube's {@code getSpamKey}: the source and the object. */
    String spamKey() {
      return component + about.kind() + about.namespace() + about.name() + about.uid()
          + about.apiVersion();
    }

    /**
     * kube's {@code EventAggregatorByReasonFunc}'s group key (the reporting controller is the
     * component, the instance and host empty).
     */
    String aggregateKey() {
      return component + about.kind() + about.namespace() + about.name() + about.uid()
          + about.apiVersion() + type + reason + component;
    }
  }

  /**
   * What to write: the event, and for a repeat the name of the existing one to count on
   * (kube's patch of {@code count}, {@code lastTimestamp} and {@code message}).
   */
  record Result(Event event, Optional<String> existing) {}

  /**
   * kube's {@code EventCorrelate}: the event to write for {@code event}, or empty when the
   * spam filter drops it. {@code freshName} names an event made by aggregation.
   */
  Optional<Result> correlate(Event event, String freshName) {
    Instant now = clock.instant();
    String cacheKey = event.key();
    // aggregate
    String aggregateKey = event.aggregateKey();
    AggregateRecord aggregate = aggregates.get(aggregateKey);
    if (aggregate == null
        || Duration.between(aggregate.last, now).compareTo(AGGREGATE_INTERVAL) > 0) {
      aggregate = new AggregateRecord();
    }
    aggregate.localKeys.add(event.message());
    aggregate.last = now;
    aggregates.put(aggregateKey, aggregate);
    Event toWrite = event;
    if (aggregate.localKeys.size() >= AGGREGATE_MAX_EVENTS) {
      // kube pops an arbitrary member to keep the set from growing
      aggregate.localKeys.remove(aggregate.localKeys.iterator().next());
      toWrite = new Event(event.component(), event.about(), event.type(), event.reason(),
          COMBINED_PREFIX + event.message(), freshName, now, now, 1);
      cacheKey = aggregateKey;
    }
    // observe
    Observation last = observations.get(cacheKey);
    Optional<String> existing = Optional.empty();
    if (last != null && last.count > 0) {
      toWrite = new Event(toWrite.component(), toWrite.about(), toWrite.type(),
          toWrite.reason(), toWrite.message(), last.name, last.firstTimestamp,
          toWrite.lastTimestamp(), last.count + 1);
      existing = Optional.of(last.name);
    }
    observations.put(cacheKey, new Observation(toWrite.count(), toWrite.firstTimestamp(),
        toWrite.name()));
    // filter
    TokenBucket bucket = spam.computeIfAbsent(event.spamKey(), k -> new TokenBucket(now));
    if (!bucket.tryAccept(now)) {
      return Optional.empty();
    }
    return Optional.of(new Result(toWrite, existing));
  }

  /** kube's {@code UpdateState}: remembers the event as the server stored it. */
  /** Forgets every event seen, as a new correlator. */
  void clear() {
    aggregates.clear();
    observations.clear();
    spam.clear();
  }

  void updateState(Event stored) {
    observations.put(stored.key(), new Observation(stored.count(), stored.firstTimestamp(),
        stored.name()));
  }

  private static <V> Map<String, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_CACHE_ENTRIES;
      }
    };
  }

  private static final class AggregateRecord {
    final Set<String> localKeys = new LinkedHashSet<>();
    Instant last;
  }

  private record Observation(long count, Instant firstTimestamp, String name) {}

  /**
   * golang.org/x/time/rate's limiter as client-go's token bucket uses it: full at first, refilled
   * at {@link #SPAM_QPS} up to {@link #SPAM_BURST}.
   */
  private static final class TokenBucket {
    private double tokens = SPAM_BURST;
    private Instant last;

    TokenBucket(Instant now) {
      this.last = now;
    }

    boolean tryAccept(Instant now) {
      if (now.isAfter(last)) {
        double elapsed = Duration.between(last, now).toNanos() / 1e9;
        tokens = Math.min(SPAM_BURST, tokens + elapsed * SPAM_QPS);
        last = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    }
  }
}
