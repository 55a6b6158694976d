/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.internal.PodTemplateHash;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tables of kube's pkg/controller/deployment/util/deployment_util_test.go, on Deployment and
 * ReplicaSet values.
 */
class DeploymentUtilTest {

  /** kube's {@code generateDeployment(image)}: one replica, its template labelled name=image. */
  static MapValue deployment(String image) {
    return (MapValue) Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
        + "\"metadata\":{\"name\":\"" + image + "\"},\"spec\":{\"replicas\":1,\"selector\":"
        + "{\"matchLabels\":{\"name\":\"" + image + "\"}},\"template\":{\"metadata\":{\"labels\":"
        + "{\"name\":\"" + image + "\"}},\"spec\":{\"containers\":[{\"name\":\"" + image
        + "\",\"image\":\"" + image + "\",\"imagePullPolicy\":\"Always\","
        + "\"terminationMessagePath\":\"/dev/termination-log\"}],\"dnsPolicy\":\"ClusterFirst\","
        + "\"terminationGracePeriodSeconds\":30,\"restartPolicy\":\"Always\","
        + "\"securityContext\":{},\"enableServiceLinks\":true}}}}");
  }

  /** kube's {@code generateRS(deployment)}: the Deployment's template, zero replicas. */
  static MapValue replicaSet(MapValue d, String name, String uid, String created) {
    MapValue template = Nested.map(d, "spec", "template");
    return (MapValue) Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\","
        + "\"creationTimestamp\":\"" + created + "\",\"labels\":"
        + Json.write(Nested.map(template, "metadata", "labels")) + "},\"spec\":{\"replicas\":0,"
        + "\"selector\":{\"matchLabels\":" + Json.write(Nested.map(template, "metadata", "labels"))
        + "},\"template\":" + Json.write(template) + "}}");
  }

  static MapValue rolling(long replicas, Value maxSurge, Value maxUnavailable) {
    MapValue d = DeploymentUtil.withReplicas(deployment("nginx"), replicas);
    MapValue strategy = MapValue.ofEntries("type", Value.of("RollingUpdate"), "rollingUpdate",
        MapValue.ofEntries("maxSurge", maxSurge, "maxUnavailable", maxUnavailable));
    return Nested.set(d, strategy, "spec", "strategy");
  }

  static Value intOrString(String s) {
    return s.endsWith("%") || !s.chars().allMatch(Character::isDigit) ? Value.of(s)
        : Value.of(Long.parseLong(s));
  }

  private static MapValue withLabel(MapValue rs, String key, String value) {
    Map<String, String> labels = new java.util.LinkedHashMap<>(Meta.labels(rs));
    labels.put(key, value);
    return DeploymentUtil.withLabels(rs, labels);
  }

  /** TestResolveFenceposts; {@code -} is an unset value. */
  @ParameterizedTest(name = "surge {0}, unavailable {1} of {2}")
  @CsvSource({
      "0%, 0%, 0, 0, 1, false",
      "39%, 39%, 10, 4, 3, false",
      "oops, 39%, 10, 0, 0, true",
      "55%, urg, 10, 0, 0, true",
      "-, 39%, 10, 0, 3, false",
      "39%, -, 10, 4, 0, false",
      "-, -, 10, 0, 1, false",
  })
  void resolveFenceposts(String surge, String unavailable, long desired, long expectSurge,
      long expectUnavailable, boolean error) {
    Value s = surge.equals("-") ? null : Value.of(surge);
    Value u = unavailable.equals("-") ? null : Value.of(unavailable);
    if (error) {
      assertThatThrownBy(() -> DeploymentUtil.resolveFenceposts(s, u, desired))
          .isInstanceOf(IllegalArgumentException.class);
      return;
    }
    assertThat(DeploymentUtil.resolveFenceposts(s, u, desired))
        .containsExactly(expectSurge, expectUnavailable);
  }

  /** TestNewRSNewReplicas: another set of 5 exists; maxUnavailable 1. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "can not scale up - to newRSReplicas, RollingUpdate, 1, 5, 1, 5",
      "scale up - to depReplicas, RollingUpdate, 6, 2, 10, 6",
      "recreate - to depReplicas, Recreate, 3, 1, 1, 3",
  })
  void newRSNewReplicas(String name, String type, long depReplicas, long newRSReplicas,
      long maxSurge, long expected) {
    MapValue d = Nested.set(rolling(depReplicas, Value.of(maxSurge), Value.of(1L)),
        Value.of(type), "spec", "strategy", "type");
    MapValue rs5 = DeploymentUtil.withReplicas(replicaSet(d, "rs5", "u5", "2026-01-01T00:00:00Z"),
        5);
    MapValue newRS = DeploymentUtil.withReplicas(
        replicaSet(d, "new", "u1", "2026-01-01T00:00:00Z"), newRSReplicas);
    assertThat(DeploymentUtil.newRSNewReplicas(d, List.of(rs5), newRS)).isEqualTo(expected);
  }

  @Test
  void findNewReplicaSetIsTheOldestWithTheTemplateWhateverItsHash() {
    MapValue d = deployment("nginx");
    MapValue newRS = withLabel(replicaSet(d, "new", "1", "2026-01-01T00:01:00Z"),
        DeploymentUtil.HASH_LABEL, "hash");
    newRS = Nested.set(newRS, Value.of("hash"), "spec", "template", "metadata", "labels",
        DeploymentUtil.HASH_LABEL);
    MapValue newRSDup = withLabel(replicaSet(d, "dup", "2", "2026-01-01T00:00:00Z"),
        DeploymentUtil.HASH_LABEL, "different-hash");
    MapValue oldDeployment = Nested.set(d, Json.read("[{\"name\":\"nginx-old-1\",\"image\":"
        + "\"nginx\",\"imagePullPolicy\":\"Always\",\"terminationMessagePath\":"
        + "\"/dev/termination-log\"}]"), "spec", "template", "spec", "containers");
    MapValue oldRS = replicaSet(oldDeployment, "old", "3", "2025-12-31T23:59:00Z");
    assertThat(DeploymentUtil.findNewReplicaSet(d, List.of(newRS, oldRS))).contains(newRS);
    assertThat(DeploymentUtil.findNewReplicaSet(d, List.of(newRS, oldRS, newRSDup)))
        .contains(newRSDup);
    assertThat(DeploymentUtil.findNewReplicaSet(d, List.of(oldRS))).isEmpty();

    // TestFindOldReplicaSets
    MapValue newOne = DeploymentUtil.withReplicas(newRS, 1);
    DeploymentUtil.OldSets sets = DeploymentUtil.findOldReplicaSets(d, List.of(newOne, oldRS));
    assertThat(sets.all()).containsExactly(oldRS);
    assertThat(sets.required()).isEmpty();
    sets = DeploymentUtil.findOldReplicaSets(d, List.of(oldRS));
    assertThat(sets.all()).containsExactly(oldRS);
    sets = DeploymentUtil.findOldReplicaSets(d, List.of(oldRS, newOne, newRSDup));
    assertThat(sets.all()).containsExactlyInAnyOrder(oldRS, newOne);
    assertThat(sets.required()).containsExactly(newOne);
    sets = DeploymentUtil.findOldReplicaSets(d, List.of(newOne));
    assertThat(sets.all()).isEmpty();
    assertThat(sets.required()).isEmpty();
  }

  /** TestEqualIgnoreHash: name, node, annotations and labels of generatePodTemplateSpec. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Same spec, same labels|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|true",
      "only pod-template-hash label value is different|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|foo|foo-node|{}|{\"pod-template-hash\":\"value-2\",\"something\":\"else\"}|true",
      "the former doesn't have pod-template-hash label|foo|foo-node|{}|{\"something\":\"else\"}|foo|foo-node|{}|{\"pod-template-hash\":\"value-2\",\"something\":\"else\"}|true",
      "label different, former without hash, same count|foo|foo-node|{}|{\"something\":\"else\"}|foo|foo-node|{}|{\"pod-template-hash\":\"value-2\"}|false",
      "label different, latter without hash, same count|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\"}|foo|foo-node|{}|{\"something\":\"else\"}|false",
      "label different, same hash value|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\"}|foo|foo-node|{}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|false",
      "Different spec, same labels|foo|foo-node|{\"former\":\"value\"}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|foo|foo-node|{\"latter\":\"value\"}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|false",
      "Different spec, different pod-template-hash label value|foo-1|foo-node|{}|{\"pod-template-hash\":\"value-1\",\"something\":\"else\"}|foo-2|foo-node|{}|{\"pod-template-hash\":\"value-2\",\"something\":\"else\"}|false",
      "Different spec, the former doesn't have pod-template-hash label|foo-1|foo-node-1|{}|{\"something\":\"else\"}|foo-2|foo-node-2|{}|{\"pod-template-hash\":\"value-2\",\"something\":\"else\"}|false",
      "Different spec, different labels|foo|foo-node-1|{}|{\"something\":\"else\"}|foo|foo-node-2|{}|{\"nothing\":\"else\"}|false",
  })
  void equalIgnoreHash(String name, String name1, String node1, String annotations1,
      String labels1, String name2, String node2, String annotations2, String labels2,
      boolean expected) {
    MapValue a = template(name1, node1, annotations1, labels1);
    MapValue b = template(name2, node2, annotations2, labels2);
    assertThat(PodTemplateHash.equalIgnoreHash(a, b)).isEqualTo(expected);
    assertThat(PodTemplateHash.equalIgnoreHash(b, a)).as("reversed").isEqualTo(expected);
  }

  private static MapValue template(String name, String node, String annotations,
      String labels) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\",\"annotations\":"
        + annotations + ",\"labels\":" + labels + "},\"spec\":{\"nodeName\":\"" + node + "\"}}");
  }

  /** TestMaxUnavailable and TestMinAvailable: maxSurge 1. */
  @ParameterizedTest(name = "{0} of {1}")
  @CsvSource({
      "5, 10, 5, 5",
      "10, 10, 10, 0",
      "10, 5, 5, 0",
      "10, 0, 0, 0",
      "50%, 10, 5, 5",
      "100%, 10, 10, 0",
      "100%, 5, 5, 0",
      "60%, 10, 6, 4",
  })
  void maxUnavailableAndMinAvailable(String maxUnavailable, long replicas, long expected,
      long expectedMinAvailable) {
    MapValue d = rolling(replicas, Value.of(1L), intOrString(maxUnavailable));
    assertThat(DeploymentUtil.maxUnavailable(d)).isEqualTo(expected);
    assertThat(DeploymentUtil.minAvailable(d)).isEqualTo(expectedMinAvailable);
  }

  @Test
  void recreateHasNoUnavailableBudget() {
    MapValue d = Nested.set(DeploymentUtil.withReplicas(deployment("nginx"), 10),
        MapValue.ofEntries("type", Value.of("Recreate")), "spec", "strategy");
    assertThat(DeploymentUtil.maxUnavailable(d)).isZero();
    assertThat(DeploymentUtil.minAvailable(d)).isZero();
    assertThat(DeploymentUtil.maxSurge(d)).isZero();
  }

  /** TestGetReplicaSetFraction: maxUnavailable 1; {@code -} is no max-replicas annotation. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "empty deployment always scales to 0, 0, 0, 0, 10, -, -10",
      "unsynced deployment without the annotation does not scale, 10, 0, 0, 5, -, 0",
      "unsynced deployment with a zero annotation does not scale, 10, 0, 0, 5, 0, 0",
      "scale up by 1/5 without the annotation, 120, 100, 0, 50, -, 10",
      "scale up by 1/5 with a zero annotation, 120, 100, 0, 50, 0, 10",
      "scale up by 1/5, 120, 0, 0, 50, 100, 10",
      "scale up with maxSurge by 1/5, 120, 0, 10, 50, 110, 9",
      "scale down by 1/6, 10, 0, 0, 6, 12, -1",
      "scale down with maxSurge by 1/6, 100, 0, 10, 50, 130, -8",
  })
  void replicaSetFraction(String name, long replicas, long statusReplicas, long maxSurge,
      long rsReplicas, String maxReplicas, long expected) {
    MapValue d = Nested.set(rolling(replicas, Value.of(maxSurge), Value.of(1L)),
        Value.of(statusReplicas), "status", "replicas");
    MapValue rs = DeploymentUtil.withReplicas(replicaSet(d, "rs", "u", "2026-01-01T00:00:00Z"),
        rsReplicas);
    if (!maxReplicas.equals("-")) {
      rs = DeploymentUtil.withAnnotations(rs, Map.of(DeploymentUtil.MAX_REPLICAS, maxReplicas));
    }
    assertThat(DeploymentUtil.replicaSetFraction(rs, d)).isEqualTo(expected);
  }

  /** TestGetNonNegativeInt32FromAnnotation. */
  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource({
      "-, -1",
      "invalid, -1",
      "-1, -1",
      "0, 0",
      "13, 13",
      "2147483647, 2147483647",
      "2147483648, -1",
      "4294967296, -1",
  })
  void nonNegativeInt32Annotation(String value, long expected) {
    MapValue rs = replicaSet(deployment("nginx"), "rs", "u", "2026-01-01T00:00:00Z");
    if (!value.equals("-")) {
      rs = DeploymentUtil.withAnnotations(rs, Map.of("test", value, "foo", "2"));
    }
    OptionalLong got = DeploymentUtil.nonNegativeInt32Annotation(rs, "test");
    assertThat(got.orElse(-1)).isEqualTo(expected);
  }

  /** TestAnnotationUtils: revisions 11 to 20 with a history limit of 5 characters. */
  @Test
  void annotationUtils() {
    MapValue d = DeploymentUtil.withAnnotations(deployment("nginx"),
        Map.of(DeploymentUtil.REVISION, "1"));
    MapValue rs = replicaSet(d, "rs", "u", "2026-01-01T00:00:00Z");
    for (int i = 10; i < 20; i++) {
      String next = String.valueOf(i + 1);
      rs = DeploymentUtil.setNewReplicaSetAnnotations(d, rs, next, true, 5).object();
      if (i >= 12) {
        assertThat(Meta.annotations(rs).get(DeploymentUtil.REVISION_HISTORY))
            .isEqualTo((i - 1) + "," + i);
      }
      assertThat(Meta.annotations(rs).get(DeploymentUtil.REVISION)).isEqualTo(next);
    }
    DeploymentUtil.Annotated replicas = DeploymentUtil.setReplicasAnnotations(rs, 10, 11);
    assertThat(replicas.changed()).isTrue();
    assertThat(Meta.annotations(replicas.object()))
        .containsEntry(DeploymentUtil.DESIRED_REPLICAS, "10")
        .containsEntry(DeploymentUtil.MAX_REPLICAS, "11");
    // IsSaturated
    MapValue saturated = DeploymentUtil.withReplicas(Nested.set(
        DeploymentUtil.withAnnotations(rs, Map.of(DeploymentUtil.DESIRED_REPLICAS, "1")),
        Value.of(1L), "status", "availableReplicas"), 1);
    assertThat(DeploymentUtil.isSaturated(d, saturated)).isTrue();
  }

  /** TestReplicasAnnotationsNeedUpdate: against 10 desired and 20 max. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "annotations nil, -, -, true",
      "desiredReplicas update, 8, 20, true",
      "maxReplicas update, 10, 16, true",
      "needn't update, 10, 20, false",
  })
  void replicasAnnotationsNeedUpdate(String name, String desired, String max,
      boolean expected) {
    MapValue rs = replicaSet(deployment("nginx"), "hello", "u", "2026-01-01T00:00:00Z");
    if (!desired.equals("-")) {
      rs = DeploymentUtil.withAnnotations(rs, Map.of(DeploymentUtil.DESIRED_REPLICAS, desired,
          DeploymentUtil.MAX_REPLICAS, max));
    }
    assertThat(DeploymentUtil.replicasAnnotationsNeedUpdate(rs, 10, 20)).isEqualTo(expected);
  }

  /** TestDeploymentComplete. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "not complete: min but not all pods become available, 5, 5, 5, 4, 1, 0, false",
      "not complete: min availability is not honored, 5, 5, 5, 3, 1, 0, false",
      "complete, 5, 5, 5, 5, 0, 0, true",
      "not complete: all pods are available but not updated, 5, 5, 4, 5, 0, 0, false",
      "not complete: still running old pods, 1, 2, 1, 1, 0, 1, false",
      "not complete: one replica deployment never comes up, 1, 1, 1, 0, 1, 1, false",
  })
  void deploymentComplete(String name, long desired, long current, long updated, long available,
      long maxUnavailable, long maxSurge, boolean expected) {
    MapValue d = rolling(desired, Value.of(maxSurge), Value.of(maxUnavailable));
    MapValue status = MapValue.ofEntries("replicas", Value.of(current),
        "updatedReplicas", Value.of(updated), "availableReplicas", Value.of(available));
    assertThat(DeploymentUtil.deploymentComplete(d, status)).isEqualTo(expected);
  }

  /** TestDeploymentProgressing: old (current, updated, ready, available) and new. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "progressing: updated pods, 10, 4, 4, 4, 10, 6, 4, 4, true",
      "not progressing, 10, 4, 4, 4, 10, 4, 4, 4, false",
      "progressing: old pods removed, 10, 4, 6, 6, 8, 4, 6, 6, true",
      "not progressing: less new pods, 10, 7, 3, 3, 10, 6, 3, 3, false",
      "progressing: less overall but more new pods, 10, 4, 7, 7, 8, 8, 5, 5, true",
      "progressing: more ready pods, 10, 10, 9, 8, 10, 10, 10, 8, true",
      "progressing: more available pods, 10, 10, 10, 9, 10, 10, 10, 10, true",
  })
  void deploymentProgressing(String name, long c0, long u0, long r0, long a0, long c1, long u1,
      long r1, long a1, boolean expected) {
    MapValue d = deployment("nginx").with("status", status(c0, u0, r0, a0));
    assertThat(DeploymentUtil.deploymentProgressing(d, status(c1, u1, r1, a1)))
        .isEqualTo(expected);
  }

  private static MapValue status(long current, long updated, long ready, long available) {
    return MapValue.ofEntries("replicas", Value.of(current), "updatedReplicas", Value.of(updated),
        "readyReplicas", Value.of(ready), "availableReplicas", Value.of(available));
  }

  /** TestDeploymentTimedOut: a Progressing=True condition updated at 00:01:09 or 00:01:11. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "nil progressDeadlineSeconds, -, '', 2016-01-01T00:01:09Z, false",
      "infinite progressDeadlineSeconds, 2147483647, '', 2016-01-01T00:01:09Z, false",
      "10s deadline and 11s passed, 10, '', 2016-01-01T00:01:09Z, true",
      "10s deadline and 9s passed, 10, '', 2016-01-01T00:01:11Z, false",
      "previous status was a complete deployment, -, NewReplicaSetAvailable, 0001-01-01T00:00:00Z, false",
  })
  void deploymentTimedOut(String name, String deadline, String reason, String from,
      boolean expected) {
    MapValue d = deployment("nginx");
    if (!deadline.equals("-")) {
      d = Nested.set(d, Value.of(Long.parseLong(deadline)), "spec", "progressDeadlineSeconds");
    }
    MapValue status = (MapValue) Json.read("{\"conditions\":[{\"type\":\"Progressing\","
        + "\"status\":\"True\",\"reason\":\"" + reason + "\",\"lastUpdateTime\":\"" + from
        + "\"}]}");
    d = d.with("status", status);
    assertThat(DeploymentUtil.deploymentTimedOut(d, status,
        Instant.parse("2016-01-01T00:01:20Z"))).isEqualTo(expected);
  }

  /** TestSetCondition and TestRemoveCondition. */
  @Test
  void conditions() {
    MapValue progressing = (MapValue) Json.read(
        "{\"type\":\"Progressing\",\"status\":\"False\",\"reason\":\"ForSomeReason\"}");
    MapValue progressing2 = (MapValue) Json.read(
        "{\"type\":\"Progressing\",\"status\":\"True\",\"reason\":\"BecauseItIs\"}");
    MapValue available = (MapValue) Json.read(
        "{\"type\":\"Available\",\"status\":\"True\",\"reason\":\"AwesomeController\"}");
    assertThat(DeploymentUtil.setCondition(MapValue.empty(), available))
        .isEqualTo(Json.read("{\"conditions\":[" + Json.write(available) + "]}"));
    MapValue both = DeploymentUtil.setCondition(
        (MapValue) Json.read("{\"conditions\":[" + Json.write(progressing) + "]}"), available);
    assertThat(Nested.list(both, "conditions")).containsExactly(progressing, available);
    assertThat(Nested.list(DeploymentUtil.setCondition(
        (MapValue) Json.read("{\"conditions\":[" + Json.write(progressing) + "]}"),
        progressing2), "conditions")).containsExactly(progressing2);
    assertThat(DeploymentUtil.removeCondition(MapValue.empty(), "Progressing"))
        .isEqualTo(MapValue.empty());
    assertThat(DeploymentUtil.removeCondition(both, "ReplicaFailure")).isEqualTo(both);
    assertThat(Nested.list(DeploymentUtil.removeCondition(both, "Progressing"), "conditions"))
        .containsExactly(available);
    assertThat(DeploymentUtil.getCondition(both, "Available")).contains(available);
    assertThat(DeploymentUtil.getCondition(both, "ReplicaFailure")).isEmpty();
  }
}
