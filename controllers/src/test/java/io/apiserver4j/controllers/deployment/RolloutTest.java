/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tables of kube's rolling_test.go and progress_test.go (pkg/controller/deployment), with a
 * {@link Rollout.Scaler} that records the sizes the controller would write, as kube's tests
 * read them from a fake client's update actions.
 */
class RolloutTest {

  /** Records each write: the set's name and its new size. */
  private static final class Recorder implements Rollout.Scaler {
    final Map<String, Long> writes = new LinkedHashMap<>();

    @Override
    public Rollout.Scaled scale(MapValue rs, long newScale) {
      if (DeploymentUtil.replicas(rs) == newScale) {
        return new Rollout.Scaled(false, rs);
      }
      return scaleAndAnnotate(rs, newScale);
    }

    @Override
    public Rollout.Scaled scaleAndAnnotate(MapValue rs, long newScale) {
      writes.put(Meta.metaString(rs, "name"), newScale);
      return new Rollout.Scaled(DeploymentUtil.replicas(rs) != newScale,
          DeploymentUtil.withReplicas(rs, newScale));
    }
  }

  /** kube's {@code rs(name, replicas, selector, timestamp)} with the available replicas. */
  private static MapValue rs(String name, long replicas, long available, String created) {
    return (MapValue) Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"" + name + "\","
        + "\"namespace\":\"default\",\"creationTimestamp\":\"" + created + "\"},"
        + "\"spec\":{\"replicas\":" + replicas + ",\"template\":{}},\"status\":{"
        + "\"availableReplicas\":" + available + "}}");
  }

  /** kube's {@code newDeployment("foo", replicas, nil, maxSurge, maxUnavailable, ...)}. */
  private static MapValue deployment(long replicas, long maxSurge, long maxUnavailable) {
    return DeploymentUtilTest.rolling(replicas, Value.of(maxSurge), Value.of(maxUnavailable));
  }

  /** TestDeploymentController_reconcileNewReplicaSet; maxUnavailable 0; -1: no scaling. */
  @ParameterizedTest(name = "{0} replicas, surge {1}, old {2}, new {3}")
  @CsvSource({
      "10, 0, 10, 0, -1",
      "10, 2, 10, 0, 2",
      "10, 2, 5, 0, 7",
      "10, 2, 10, 2, -1",
      "10, 2, 2, 11, 10",
  })
  void reconcileNewReplicaSet(long replicas, long maxSurge, long oldReplicas, long newReplicas,
      long expectedNew) {
    MapValue newRS = rs("foo-v2", newReplicas, 0, "2026-01-01T00:00:00Z");
    MapValue oldRS = rs("foo-v1", oldReplicas, 0, "2026-01-01T00:00:00Z");
    Recorder recorder = new Recorder();
    boolean scaled = Rollout.reconcileNewReplicaSet(deployment(replicas, maxSurge, 0),
        List.of(newRS, oldRS), newRS, recorder);
    if (expectedNew < 0) {
      assertThat(scaled).isFalse();
      assertThat(recorder.writes).isEmpty();
      return;
    }
    assertThat(scaled).isTrue();
    assertThat(recorder.writes).isEqualTo(Map.of("foo-v2", expectedNew));
  }

  /** TestDeploymentController_reconcileOldReplicaSets; maxSurge 0. */
  @ParameterizedTest(name = "{0} replicas, unavailable {1}, old {2} ({4} ready), new {3}")
  @CsvSource({
      "10, 0, 10, 0, 10, 0, true, 9",
      "10, 2, 10, 0, 10, 0, true, 8",
      "10, 2, 10, 0, 8, 0, true, 8",
      "10, 2, 10, 0, 9, 0, true, 8",
      "10, 2, 8, 2, 8, 0, false, 8",
  })
  void reconcileOldReplicaSets(long replicas, long maxUnavailable, long oldReplicas,
      long newReplicas, long oldReady, long newReady, boolean scaleExpected, long expectedOld) {
    MapValue newRS = rs("foo-new", newReplicas, newReady, "2026-01-01T00:00:00Z");
    MapValue oldRS = rs("foo-old", oldReplicas, oldReady, "2026-01-01T00:00:00Z");
    Recorder recorder = new Recorder();
    boolean scaled = Rollout.reconcileOldReplicaSets(deployment(replicas, 0, maxUnavailable),
        List.of(oldRS, newRS), List.of(oldRS), newRS, recorder);
    assertThat(scaled).isEqualTo(scaleExpected);
    assertThat(recorder.writes.getOrDefault("foo-old", oldReplicas)).isEqualTo(expectedOld);
  }

  /** TestDeploymentController_cleanupUnhealthyReplicas: 10 old replicas. */
  @ParameterizedTest(name = "{0} ready, up to {1}")
  @CsvSource({
      "8, 1, 1",
      "8, 3, 2",
      "8, 0, 0",
      "10, 3, 0",
  })
  void cleanupUnhealthyReplicas(long ready, long maxCleanup, long expected) {
    List<MapValue> old = new ArrayList<>(List.of(rs("foo-v2", 10, ready,
        "2026-01-01T00:00:00Z")));
    assertThat(Rollout.cleanupUnhealthyReplicas(old, maxCleanup, new Recorder()))
        .isEqualTo(expected);
    assertThat(DeploymentUtil.replicas(old.get(0))).isEqualTo(10 - expected);
  }

  /** TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate; maxSurge 0. */
  @ParameterizedTest(name = "{0} replicas, unavailable {1}, {2} ready of {3}")
  @CsvSource({
      "10, 0, 10, 10, 9",
      "10, 2, 10, 10, 8",
      "10, 2, 8, 10, -1",
      "10, 2, 10, 0, -1",
      "10, 2, 1, 10, -1",
  })
  void scaleDownOldReplicaSetsForRollingUpdate(long replicas, long maxUnavailable, long ready,
      long oldReplicas, long expectedOld) {
    MapValue oldRS = rs("foo-v2", oldReplicas, ready, "2026-01-01T00:00:00Z");
    Recorder recorder = new Recorder();
    long scaled = Rollout.scaleDownOldReplicaSetsForRollingUpdate(
        deployment(replicas, 0, maxUnavailable), List.of(oldRS), List.of(oldRS), recorder);
    if (expectedOld < 0) {
      assertThat(scaled).isZero();
      assertThat(recorder.writes).isEmpty();
      return;
    }
    assertThat(scaled).isPositive();
    assertThat(recorder.writes).isEqualTo(Map.of("foo-v2", expectedOld));
  }

  private static final Map<String, String> TIMES = Map.of("new", "2016-05-20T02:00:00Z",
      "old", "2016-05-20T01:00:00Z", "older", "2016-05-20T00:00:00Z");

  /**
   * kube's TestScale (sync_test.go): {@code newDeployment("foo", replicas, nil, maxSurge, nil)}
   * after {@code oldDeployment}, whose sizes the sets' replicas annotations carry; sets as
   * {@code name:size:age}, expectations as {@code name:size}. kube's "failed rs update" case
   * needs a failing client and is left out.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "normal scaling event: 10 -> 12|12|0|10|0|foo-v1:10:new||foo-v1:12",
      "normal scaling event: 10 -> 5|5|0|10|0|foo-v1:10:new||foo-v1:5",
      "proportional scaling: 5 -> 10|10|0|5|0|foo-v2:2:new|foo-v1:3:old|foo-v2:4,foo-v1:6",
      "proportional scaling: 5 -> 3|3|0|5|0|foo-v2:2:new|foo-v1:3:old|foo-v2:1,foo-v1:2",
      "proportional scaling: 9 -> 4|4|0|9|0|foo-v2:8:new|foo-v1:1:old|foo-v2:4,foo-v1:0",
      "proportional scaling: 7 -> 10|10|0|7|0|foo-v3:2:new|foo-v2:3:old,foo-v1:2:older|foo-v3:3,foo-v2:4,foo-v1:3",
      "proportional scaling: 13 -> 8|8|0|13|0|foo-v3:2:new|foo-v2:8:old,foo-v1:3:older|foo-v3:1,foo-v2:5,foo-v1:2",
      "leftover distribution: 3 -> 4|4|0|3|0|foo-v3:1:new|foo-v2:1:old,foo-v1:1:older|foo-v3:2,foo-v2:1,foo-v1:1",
      "leftover distribution: 3 -> 2|2|0|3|0|foo-v3:1:new|foo-v2:1:old,foo-v1:1:older|foo-v3:1,foo-v2:1,foo-v1:0",
      "proportional scaling (no new rs): 4 -> 5|5|0|4|0||foo-v2:2:old,foo-v1:2:older|foo-v2:3,foo-v1:2",
      "proportional scaling: 6 -> 0|0|0|6|0|foo-v3:3:new|foo-v2:2:old,foo-v1:1:older|foo-v3:0,foo-v2:0,foo-v1:0",
      "proportional scaling: 0 -> 6|6|0|6|0|foo-v3:0:new|foo-v2:0:old,foo-v1:0:older|foo-v3:6,foo-v2:0,foo-v1:0",
      "deployment with surge pods|20|2|10|2|foo-v2:6:new|foo-v1:6:old|foo-v2:11,foo-v1:11",
      "change both surge and size|50|6|10|3|foo-v2:5:new|foo-v1:8:old|foo-v2:22,foo-v1:34",
      "change both size and template|14|0|10|0||foo-v2:7:new,foo-v1:3:old|foo-v2:10,foo-v1:4",
  })
  void scale(String name, long replicas, long maxSurge, long oldReplicas, long oldMaxSurge,
      String newSet, String oldSets, String expected) {
    MapValue d = deployment(replicas, maxSurge, 0);
    if (name.contains("template")) {
      d = Nested.set(d, Value.of("label"), "spec", "template", "metadata", "labels", "another");
    }
    MapValue oldD = deployment(oldReplicas, oldMaxSurge, 0);
    long max = oldReplicas + DeploymentUtil.maxSurge(oldD);
    MapValue newRS = newSet == null ? null : annotated(newSet, oldReplicas, max);
    List<MapValue> old = new ArrayList<>();
    if (oldSets != null) {
      for (String s : oldSets.split(",")) {
        old.add(annotated(s, oldReplicas, max));
      }
    }
    Map<String, Long> sizes = new LinkedHashMap<>();
    if (newRS != null) {
      sizes.put(Meta.metaString(newRS, "name"), DeploymentUtil.replicas(newRS));
    }
    old.forEach(rs -> sizes.put(Meta.metaString(rs, "name"), DeploymentUtil.replicas(rs)));
    Recorder recorder = new Recorder();
    Rollout.scale(d, newRS, old, recorder);
    sizes.putAll(recorder.writes);
    Map<String, Long> want = new LinkedHashMap<>();
    for (String e : expected.split(",")) {
      String[] p = e.split(":");
      want.put(p[0], Long.parseLong(p[1]));
    }
    assertThat(sizes).isEqualTo(want);
  }

  /** kube's {@code rs(name, size, nil, time)} with SetReplicasAnnotations(desired, max). */
  private static MapValue annotated(String spec, long desired, long max) {
    String[] p = spec.split(":");
    MapValue rs = rs(p[0], Long.parseLong(p[1]), 0, TIMES.get(p[2]));
    return DeploymentUtil.setReplicasAnnotations(rs, desired, max).object();
  }

  /**
   * kube's TestDeploymentController_cleanupDeployment: sets as {@code name:spec:status}
   * ({@code name:deleting} for one being deleted); how many are deleted.
   */
  @ParameterizedTest(name = "limit {1}: {0}")
  @CsvSource(delimiter = '|', value = {
      "foo-1:0:0,foo-2:0:0,foo-3:0:0|1|2",
      "foo-1:0:0,foo-2:0:1,foo-3:1:0,foo-4:1:1|0|1",
      "foo-1:0:0,foo-2:0:0|0|2",
      "foo-1:1:1,foo-2:1:1|0|0",
      "foo-1:deleting|0|0",
      "foo-1:0:0,foo-2:0:0,foo-3:0:0|2147483647|0",
  })
  void cleanupDeployment(String sets, long limit, int expectedDeletions) {
    List<MapValue> old = new ArrayList<>();
    for (String s : sets.split(",")) {
      String[] p = s.split(":");
      MapValue rs;
      if (p[1].equals("deleting")) {
        rs = Nested.set(rs(p[0], 0, 0, "2026-01-01T00:00:00Z"),
            Value.of("2026-01-01T00:00:00Z"), "metadata", "deletionTimestamp");
      } else {
        rs = Nested.set(rs(p[0], Long.parseLong(p[1]), 0, "2026-01-01T00:00:00Z"),
            Value.of(Long.parseLong(p[2])), "status", "replicas");
      }
      old.add(rs);
    }
    MapValue d = Nested.set(deployment(1, 0, 0), Value.of(limit), "spec",
        "revisionHistoryLimit");
    assertThat(Rollout.toCleanUp(d, old)).hasSize(expectedDeletions);
  }

  // ---- progress_test.go ----

  private static final Instant TEST_TIME = Instant.parse("2017-02-15T18:49:00Z");

  /** kube's {@code currentDeployment}: Recreate, observed, with the given counts. */
  private static MapValue current(String deadline, long replicas, long statusReplicas,
      long updated, long available, String conditions) {
    MapValue d = (MapValue) Json.read("{\"metadata\":{\"name\":\"progress-test\"},\"spec\":{"
        + "\"replicas\":" + replicas + ",\"strategy\":{\"type\":\"Recreate\"}},\"status\":{"
        + "\"replicas\":" + statusReplicas + ",\"updatedReplicas\":" + updated
        + ",\"availableReplicas\":" + available + ",\"conditions\":" + conditions + "}}");
    if (!deadline.equals("-")) {
      d = Nested.set(d, Value.of(Long.parseLong(deadline)), "spec", "progressDeadlineSeconds");
    }
    return d;
  }

  private static final String FAILED = "[{\"type\":\"Progressing\",\"status\":\"False\","
      + "\"reason\":\"ProgressDeadlineExceeded\"}]";
  private static final String STUCK = "[{\"type\":\"Progressing\",\"status\":\"True\","
      + "\"lastUpdateTime\":\"2017-02-15T18:49:00Z\"}]";

  /** TestRequeueStuckDeployment; -1: no requeue, in milliseconds otherwise. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "nil progressDeadlineSeconds specified|-|4|3|3|2|[]|3|3|2|2017-02-15T18:49:00Z|-1",
      "infinite progressDeadlineSeconds specified|2147483647|4|3|3|2|[]|3|3|2|2017-02-15T18:49:00Z|-1",
      "no progressing condition found|60|4|3|3|2|[]|3|3|2|2017-02-15T18:49:00Z|-1",
      "complete deployment does not need to be requeued|60|3|3|3|3|[]|3|3|3|2017-02-15T18:49:00Z|-1",
      "already failed deployment does not need to be requeued|60|3|3|3|0|FAILED|3|3|0|2017-02-15T18:49:00Z|-1",
      "stuck deployment - 30s|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:49:30Z|30000",
      "stuck deployment - 1s|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:49:59Z|1000",
      "failed deployment - less than a second => now|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:49:59.000000001Z|0",
      "failed deployment - now|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:50:00Z|0",
      "failed deployment - 1s after deadline|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:50:01Z|0",
      "failed deployment - 60s after deadline|60|3|3|3|1|STUCK|3|3|1|2017-02-15T18:51:00Z|0",
  })
  void requeueStuckDeployment(String name, String deadline, long replicas, long statusReplicas,
      long updated, long available, String conditions, long newReplicas, long newUpdated,
      long newAvailable, String now, long expectedMillis) {
    String c = conditions.equals("FAILED") ? FAILED : conditions.equals("STUCK") ? STUCK
        : conditions;
    MapValue d = current(deadline, replicas, statusReplicas, updated, available, c);
    MapValue status = MapValue.ofEntries("replicas", Value.of(newReplicas),
        "updatedReplicas", Value.of(newUpdated), "availableReplicas", Value.of(newAvailable));
    Optional<Duration> got = DeploymentController.stuckRequeueDelay(d, status, Instant.parse(now));
    assertThat(got.map(Duration::toMillis).orElse(-1L)).isEqualTo(expectedMillis);
  }

  /**
   * TestSyncRolloutStatus: the Progressing condition syncRolloutStatus leaves; {@code -} is
   * none, and "kept" marks a time that must stay the test time.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "no progress deadline: remove Progressing|-|3|2|2|2|UPDATED|bar,0,1,1|foo,3,2,2|-|-|-|-",
      "only one active ReplicaSet: no estimate|60|3|3|3|3|AVAILABLE|bar,3,3,3|-|True|NewReplicaSetAvailable|kept|kept",
      "progressing keeps lastTransitionTime of Progressing=True|60|3|2|2|2|UPDATED|bar,0,1,1|foo,3,2,2|True|ReplicaSetUpdated|-|kept",
      "progressing after Progressing=False|60|3|2|2|2|FAILED|bar,0,1,1|foo,3,2,2|True|ReplicaSetUpdated|-|-",
      "progressing creates the condition|60|3|2|2|2|NONE|bar,0,1,1|foo,3,2,2|True|ReplicaSetUpdated|-|-",
      "complete keeps lastTransitionTime of Progressing=True|60|3|3|3|3|UPDATED|-|foo,3,3,3|True|NewReplicaSetAvailable|-|kept",
      "complete after Progressing=False|60|3|3|3|3|FAILED|-|foo,3,3,3|True|NewReplicaSetAvailable|-|-",
      "complete creates the condition|60|3|3|3|3|NONE|-|foo,3,3,3|True|NewReplicaSetAvailable|-|-",
      "complete without a new ReplicaSet|60|0|3|3|3|UPDATED|foo,0,0,0|-|True|NewReplicaSetAvailable|-|-",
      "timed out|60|3|2|2|2|UPDATED|-|foo,3,2,2|False|ProgressDeadlineExceeded|-|-",
      "already timed out: unchanged|60|3|2|2|2|FAILED|-|foo,3,2,2|False|ProgressDeadlineExceeded|-|-",
  })
  void syncRolloutStatus(String name, String deadline, long replicas, long statusReplicas,
      long updated, long available, String condition, String old, String newSet,
      String expectedStatus, String expectedReason, String lastUpdate, String lastTransition) {
    String t = "\"" + Meta.formatTime(TEST_TIME) + "\"";
    String c = switch (condition) {
      case "UPDATED" -> "[{\"type\":\"Progressing\",\"status\":\"True\",\"reason\":"
          + "\"ReplicaSetUpdated\",\"lastUpdateTime\":" + t + ",\"lastTransitionTime\":" + t
          + "}]";
      case "AVAILABLE" -> "[{\"type\":\"Progressing\",\"status\":\"True\",\"reason\":"
          + "\"NewReplicaSetAvailable\",\"lastUpdateTime\":" + t + ",\"lastTransitionTime\":"
          + t + "}]";
      case "FAILED" -> "[{\"type\":\"Progressing\",\"status\":\"False\",\"reason\":"
          + "\"ProgressDeadlineExceeded\"}]";
      default -> "[]";
    };
    MapValue d = current(deadline, replicas, statusReplicas, updated, available, c);
    List<MapValue> all = new ArrayList<>();
    if (!old.equals("-")) {
      all.add(withStatus(old));
    }
    MapValue newRS = newSet.equals("-") ? null : withStatus(newSet);
    if (newRS != null) {
      all.add(newRS);
    }
    Instant now = TEST_TIME.plusSeconds(3600);
    MapValue status = DeploymentController.rolloutStatus(d,
        DeploymentController.calculateStatus(all, newRS, d, now), all, newRS, now);
    Optional<MapValue> got = DeploymentUtil.getCondition(status, "Progressing");
    if (expectedStatus.equals("-")) {
      assertThat(got).isEmpty();
      return;
    }
    assertThat(got).isPresent();
    assertThat(Nested.str(got.get(), "status")).isEqualTo(expectedStatus);
    assertThat(Nested.str(got.get(), "reason")).isEqualTo(expectedReason);
    if (lastUpdate.equals("kept")) {
      assertThat(Nested.str(got.get(), "lastUpdateTime")).isEqualTo(Meta.formatTime(TEST_TIME));
    }
    if (lastTransition.equals("kept")) {
      assertThat(Nested.str(got.get(), "lastTransitionTime"))
          .isEqualTo(Meta.formatTime(TEST_TIME));
    }
  }

  /** kube's {@code newRSWithAvailable(name, spec, status, available)} from "name,s,r,a". */
  private static MapValue withStatus(String spec) {
    String[] p = spec.split(",");
    MapValue rs = rs(p[0], Long.parseLong(p[1]), Long.parseLong(p[3]), "2026-01-01T00:00:00Z");
    return Nested.set(rs, Value.of(Long.parseLong(p[2])), "status", "replicas");
  }
}
