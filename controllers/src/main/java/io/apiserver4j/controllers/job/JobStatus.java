/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Job's {@code status} while one sync works on it (kube's {@code batch.JobStatus} copy),
 * written back as kube serializes it: zero counters omitted, {@code ready} and
 * {@code terminating} always present, {@code uncountedTerminatedPods} an object. Not
 * thread-safe: one sync owns it.
 */
final class JobStatus {
  long active;
  long ready;
  long terminating;
  long succeeded;
  long failed;
  Optional<String> startTime = Optional.empty();
  Optional<String> completionTime = Optional.empty();
  String completedIndexes = "";
  Optional<String> failedIndexes = Optional.empty();
  final List<String> uncountedSucceeded = new ArrayList<>();
  final List<String> uncountedFailed = new ArrayList<>();
  final List<MapValue> conditions = new ArrayList<>();
  /** Fields kube's controller does not touch, kept as they are. */
  private MapValue rest = MapValue.empty();

  static JobStatus of(MapValue job) {
    MapValue s = Nested.map(job, "status");
    JobStatus st = new JobStatus();
    st.active = Nested.integer(s, "active");
    st.ready = Nested.integer(s, "ready");
    st.terminating = Nested.integer(s, "terminating");
    st.succeeded = Nested.integer(s, "succeeded");
    st.failed = Nested.integer(s, "failed");
    st.startTime = optional(s, "startTime");
    st.completionTime = optional(s, "completionTime");
    st.completedIndexes = Nested.str(s, "completedIndexes");
    st.failedIndexes = s.containsKey("failedIndexes")
        ? Optional.of(Nested.str(s, "failedIndexes")) : Optional.empty();
    st.uncountedSucceeded.addAll(Meta.stringList(
        Nested.getOrNull(s, "uncountedTerminatedPods", "succeeded")));
    st.uncountedFailed.addAll(Meta.stringList(
        Nested.getOrNull(s, "uncountedTerminatedPods", "failed")));
    for (Value c : Nested.list(s, "conditions")) {
      if (c instanceof MapValue m) {
        st.conditions.add(m);
      }
    }
    MapValue r = s;
    for (String k : List.of("active", "ready", "terminating", "succeeded", "failed", "startTime",
        "completionTime", "completedIndexes", "failedIndexes", "uncountedTerminatedPods",
        "conditions")) {
      r = r.without(k);
    }
    st.rest = r;
    return st;
  }

  private static Optional<String> optional(MapValue s, String key) {
    String v = Nested.str(s, key);
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** The first condition of {@code type}, if any. */
  Optional<MapValue> condition(String type) {
    return conditions.stream().filter(c -> Nested.str(c, "type").equals(type)).findFirst();
  }

  /** Whether a condition of {@code type} has status True. */
  boolean isTrue(String type) {
    return condition(type).map(c -> Nested.str(c, "status").equals("True")).orElse(false);
  }

  /**
   * kube's {@code ensureJobConditionStatus}: sets or adds the condition (a False one is never
   * added), a changed one with fresh times; whether anything changed.
   */
  boolean ensureCondition(String type, String status, String reason, String message,
      Instant now) {
    for (int i = 0; i < conditions.size(); i++) {
      MapValue c = conditions.get(i);
      if (Nested.str(c, "type").equals(type)) {
        if (!Nested.str(c, "status").equals(status) || !Nested.str(c, "reason").equals(reason)
            || !Nested.str(c, "message").equals(message)) {
          conditions.set(i, condition(type, status, reason, message, now));
          return true;
        }
        return false;
      }
    }
    if (!status.equals("False")) {
      conditions.add(condition(type, status, reason, message, now));
      return true;
    }
    return false;
  }

  /** kube's {@code newCondition}: probe and transition times both now. */
  static MapValue condition(String type, String status, String reason, String message,
      Instant now) {
    MapValue.Builder b = MapValue.builder();
    b.put("type", Value.of(type));
    b.put("status", Value.of(status));
    b.put("lastProbeTime", Value.of(Meta.formatTime(now)));
    b.put("lastTransitionTime", Value.of(Meta.formatTime(now)));
    if (!reason.isEmpty()) {
      b.put("reason", Value.of(reason));
    }
    if (!message.isEmpty()) {
      b.put("message", Value.of(message));
    }
    return b.build();
  }

  /** The status as kube serializes it. */
  MapValue toValue() {
    MapValue.Builder b = rest.toBuilder();
    if (!conditions.isEmpty()) {
      b.put("conditions", ListValue.of(conditions));
    }
    startTime.ifPresent(t -> b.put("startTime", Value.of(t)));
    completionTime.ifPresent(t -> b.put("completionTime", Value.of(t)));
    putNonZero(b, "active", active);
    putNonZero(b, "succeeded", succeeded);
    putNonZero(b, "failed", failed);
    b.put("terminating", Value.of(terminating));
    if (!completedIndexes.isEmpty()) {
      b.put("completedIndexes", Value.of(completedIndexes));
    }
    failedIndexes.ifPresent(f -> b.put("failedIndexes", Value.of(f)));
    MapValue.Builder u = MapValue.builder();
    if (!uncountedSucceeded.isEmpty()) {
      u.put("succeeded", ListValue.ofStrings(uncountedSucceeded));
    }
    if (!uncountedFailed.isEmpty()) {
      u.put("failed", ListValue.ofStrings(uncountedFailed));
    }
    b.put("uncountedTerminatedPods", u.build());
    b.put("ready", Value.of(ready));
    return b.build();
  }

  private static void putNonZero(MapValue.Builder b, String key, long v) {
    if (v != 0) {
      b.put(key, Value.of(v));
    }
  }
}
