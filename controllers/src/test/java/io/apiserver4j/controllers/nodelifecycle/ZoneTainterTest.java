/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.nodelifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The zone tainter's queue and limiter (kube's {@code RateLimitedTimedQueue} and
 * {@code UniqueQueue} in pkg/controller/nodelifecycle/scheduler, their tests' expectations), on
 * the clock; and kube's {@code ComputeZoneState} and {@code GetZoneKey}.
 */
class ZoneTainterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aNodeIsQueuedOnceAndStaysKnownAfterItWasProcessed() {
    ZoneTainter t = new ZoneTainter(1, T0);
    assertThat(t.add("first", "1", T0)).isTrue();
    assertThat(t.add("first", "1", T0)).isFalse();
    assertThat(t.add("second", "2", T0)).isTrue();
    List<String> seen = new ArrayList<>();
    t.tryProcess(T0, n -> {
      seen.add(n);
      return ZoneTainter.Result.DONE;
    });
    // burst 1: one Node per token
    assertThat(seen).containsExactly("first");
    t.tryProcess(T0.plusSeconds(1), n -> {
      seen.add(n);
      return ZoneTainter.Result.DONE;
    });
    assertThat(seen).containsExactly("first", "second");
    // processed, still in the set: not queued again until removed
    assertThat(t.add("first", "1", T0.plusSeconds(2))).isFalse();
    assertThat(t.remove("first")).isTrue();
    assertThat(t.remove("first")).isFalse();
    assertThat(t.add("first", "1", T0.plusSeconds(2))).isTrue();
  }

  @Test
  void aFailedNodeIsRetriedAfterTheWaitItAsksFor() {
    ZoneTainter t = new ZoneTainter(100, T0);
    t.add("n", "1", T0);
    List<Instant> tries = new ArrayList<>();
    t.tryProcess(T0, n -> {
      tries.add(T0);
      return new ZoneTainter.Result(false, Duration.ofMillis(50));
    });
    assertThat(tries).hasSize(1);
    assertThat(t.nextTry(T0)).contains(T0.plusMillis(50).plusNanos(1));
    t.tryProcess(T0.plusMillis(20), n -> {
      tries.add(T0);
      return ZoneTainter.Result.DONE;
    });
    assertThat(tries).hasSize(1);
  }

  @Test
  void theLimiterRefillsOnTheClockAndAZeroRateLetsNothingThrough() {
    ZoneTainter t = new ZoneTainter(NodeLifecycleController.EVICTION_QPS, T0);
    t.add("a", "1", T0);
    t.add("b", "2", T0);
    t.tryProcess(T0, n -> ZoneTainter.Result.DONE);
    assertThat(t.nextTry(T0)).contains(T0.plusSeconds(10));
    t.tryProcess(T0.plusSeconds(9), n -> ZoneTainter.Result.DONE);
    assertThat(t.nextTry(T0.plusSeconds(9))).contains(T0.plusSeconds(10));
    t.swapLimiter(0, T0.plusSeconds(9));
    assertThat(t.nextTry(T0.plusSeconds(100))).isEmpty();
    t.tryProcess(T0.plusSeconds(100), n -> {
      throw new AssertionError("a zero rate let " + n + " through");
    });
    // back to the normal rate: a fresh bucket, since the zero limiter had no token
    t.swapLimiter(NodeLifecycleController.EVICTION_QPS, T0.plusSeconds(100));
    assertThat(t.nextTry(T0.plusSeconds(100))).contains(T0.plusSeconds(110));
  }

  private static List<Value> conditions(String... statuses) {
    List<Value> out = new ArrayList<>();
    for (String s : statuses) {
      out.add(s == null ? null : Json.read("{\"type\":\"Ready\",\"status\":\"" + s + "\"}"));
    }
    return out;
  }

  @Test
  void zoneStates() {
    assertThat(NodeLifecycleController.computeZoneState(conditions("True", "True")))
        .isEqualTo(NodeLifecycleController.ZoneState.NORMAL);
    assertThat(NodeLifecycleController.computeZoneState(conditions("False", "Unknown")))
        .isEqualTo(NodeLifecycleController.ZoneState.FULL_DISRUPTION);
    // a Node without a Ready condition counts as not ready
    assertThat(NodeLifecycleController.computeZoneState(conditions("True", null, "False",
        "Unknown", "True"))).isEqualTo(NodeLifecycleController.ZoneState.PARTIAL_DISRUPTION);
    // more than 2 and at least 55 % not ready
    assertThat(NodeLifecycleController.computeZoneState(conditions("True", "False", "False")))
        .isEqualTo(NodeLifecycleController.ZoneState.NORMAL);
    assertThat(NodeLifecycleController.computeZoneState(conditions("True", "True", "False",
        "False", "False"))).isEqualTo(NodeLifecycleController.ZoneState.PARTIAL_DISRUPTION);
    assertThat(NodeLifecycleController.computeZoneState(conditions("True", "True", "True",
        "False", "False", "False"))).isEqualTo(NodeLifecycleController.ZoneState.NORMAL);
  }

  @Test
  void zoneKeys() {
    assertThat(NodeLifecycleController.zoneKey((io.apiserver4j.core.MapValue) Json.read(
        "{\"metadata\":{\"name\":\"n\"}}"))).isEmpty();
    assertThat(NodeLifecycleController.zoneKey((io.apiserver4j.core.MapValue) Json.read(
        "{\"metadata\":{\"labels\":{\"topology.kubernetes.io/region\":\"r\","
            + "\"topology.kubernetes.io/zone\":\"z\"}}}"))).isEqualTo("r:\u0000:z");
    assertThat(NodeLifecycleController.zoneKey((io.apiserver4j.core.MapValue) Json.read(
        "{\"metadata\":{\"labels\":{\"failure-domain.beta.kubernetes.io/zone\":\"z\"}}}")))
        .isEqualTo(":\u0000:z");
  }

  @Test
  void addOrUpdateTaintKeepsATaintOfTheSameValue() {
    List<Value> taints = ((ListValue) Json.read("[{\"key\":\"k\",\"effect\":\"NoExecute\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}]")).items();
    io.apiserver4j.core.MapValue again = (io.apiserver4j.core.MapValue) Json.read(
        "{\"key\":\"k\",\"effect\":\"NoExecute\",\"timeAdded\":\"2026-01-01T00:05:00Z\"}");
    assertThat(NodeLifecycleController.addOrUpdate(taints, again)).isSameAs(taints);
    io.apiserver4j.core.MapValue other = (io.apiserver4j.core.MapValue) Json.read(
        "{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoExecute\"}");
    assertThat(NodeLifecycleController.addOrUpdate(taints, other)).containsExactly(other);
    assertThat(NodeLifecycleController.withoutTaint(taints, "k")).isEmpty();
  }
}
