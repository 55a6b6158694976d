/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's daemon controller tables: {@code TestNodeShouldRunDaemonPod} (nodeSelector, nodeName,
 * node affinity, taints against the template's and kube's daemon tolerations),
 * {@code TestAddOrUpdateDaemonPodTolerations}, {@code TestReplaceDaemonSetPodNodeNameNodeAffinity}
 * and {@code TestGetTargetNodeName} of pkg/controller/daemon/util.
 */
class DaemonSetUtilsTest {

  /**
   * One case: the template spec's extra JSON fields, the Node's labels and taints as JSON, and
   * kube's (shouldRun, shouldContinueRunning).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "no constraints | | {} | [] | true | true",
      "nodeSelector matches | ,\"nodeSelector\":{\"disk\":\"ssd\"} | {\"disk\":\"ssd\"} | []"
          + " | true | true",
      "nodeSelector does not match | ,\"nodeSelector\":{\"disk\":\"ssd\"} | {\"disk\":\"hdd\"}"
          + " | [] | false | false",
      "nodeName is this node | ,\"nodeName\":\"node-1\" | {} | [] | true | true",
      "nodeName is another node | ,\"nodeName\":\"node-2\" | {} | [] | false | false",
      "affinity In matches | ,\"affinity\":{\"nodeAffinity\":{\"requiredDuringScheduling"
          + "IgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":"
          + "\"zone\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]}]}]}}} | {\"zone\":\"b\"} | []"
          + " | true | true",
      "affinity In does not match | ,\"affinity\":{\"nodeAffinity\":{\"requiredDuringScheduling"
          + "IgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":[{\"key\":"
          + "\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}]}}} | {\"zone\":\"b\"} | []"
          + " | false | false",
      "affinity matchFields on the node name | ,\"affinity\":{\"nodeAffinity\":{\"required"
          + "DuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchFields\":"
          + "[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"node-1\"]}]}]}}} | {}"
          + " | [] | true | true",
      "untolerated NoSchedule taint | | {} | [{\"key\":\"dedicated\",\"value\":\"gpu\","
          + "\"effect\":\"NoSchedule\"}] | false | true",
      "untolerated NoExecute taint | | {} | [{\"key\":\"dedicated\",\"value\":\"gpu\","
          + "\"effect\":\"NoExecute\"}] | false | false",
      "PreferNoSchedule taint is ignored | | {} | [{\"key\":\"dedicated\",\"effect\":"
          + "\"PreferNoSchedule\"}] | true | true",
      "tolerated by the template (Equal) | ,\"tolerations\":[{\"key\":\"dedicated\","
          + "\"operator\":\"Equal\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}] | {} | [{\"key\":"
          + "\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}] | true | true",
      "toleration of another value | ,\"tolerations\":[{\"key\":\"dedicated\",\"value\":\"x\","
          + "\"effect\":\"NoSchedule\"}] | {} | [{\"key\":\"dedicated\",\"value\":\"gpu\","
          + "\"effect\":\"NoSchedule\"}] | false | true",
      "not-ready NoExecute: daemon toleration | | {} | [{\"key\":\"node.kubernetes.io/not-ready\","
          + "\"effect\":\"NoExecute\"}] | true | true",
      "not-ready NoSchedule (a new Node): not tolerated | | {} | [{\"key\":"
          + "\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"}] | false | true",
      "unreachable NoExecute: daemon toleration | | {} | [{\"key\":"
          + "\"node.kubernetes.io/unreachable\",\"effect\":\"NoExecute\"}] | true | true",
      "unschedulable: daemon toleration | | {} | [{\"key\":\"node.kubernetes.io/unschedulable\","
          + "\"effect\":\"NoSchedule\"}] | true | true",
      "memory pressure: daemon toleration | | {} | [{\"key\":"
          + "\"node.kubernetes.io/memory-pressure\",\"effect\":\"NoSchedule\"}] | true | true",
      "disk pressure: daemon toleration | | {} | [{\"key\":"
          + "\"node.kubernetes.io/disk-pressure\",\"effect\":\"NoSchedule\"}] | true | true",
      "pid pressure: daemon toleration | | {} | [{\"key\":"
          + "\"node.kubernetes.io/pid-pressure\",\"effect\":\"NoSchedule\"}] | true | true",
      "network unavailable, pod network | | {} | [{\"key\":"
          + "\"node.kubernetes.io/network-unavailable\",\"effect\":\"NoSchedule\"}] | false | true",
      "network unavailable, host network | ,\"hostNetwork\":true | {} | [{\"key\":"
          + "\"node.kubernetes.io/network-unavailable\",\"effect\":\"NoSchedule\"}] | true | true",
  })
  void nodeShouldRunDaemonPod(String name, String spec, String labels, String taints,
      boolean shouldRun, boolean shouldContinue) {
    MapValue ds = (MapValue) Json.read("{\"metadata\":{\"name\":\"ds\",\"namespace\":\"ns\"},"
        + "\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\"}},\"spec\":{"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]" + (spec == null ? "" : spec)
        + "}}}}");
    MapValue node = (MapValue) Json.read("{\"metadata\":{\"name\":\"node-1\",\"labels\":"
        + labels + "},\"spec\":{\"taints\":" + taints + "}}");
    assertThat(DaemonSetUtils.nodeShouldRunDaemonPod(node, ds))
        .isEqualTo(new DaemonSetUtils.ShouldRun(shouldRun, shouldContinue));
  }

  /**
   * kube's {@code snapshot}: the hash is {@code ComputeHash(&ds.Spec.Template,
   * ds.Status.CollisionCount)} and the revision is named {@code ds.Name + "-" + hash}. The
   * template is the one of PodTemplateHashTest, whose hashes (65d4f7c448 without a collision
   * count, 7ffdb44b97 with 1) are derived there step by step.
   */
  @Test
  void revisionHashIsKubesComputeHashOfTheTemplate() {
    String template = "{\"metadata\":{\"labels\":{\"app\":\"web\",\"tier\":\"front\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":"
        + "{\"limits\":{\"memory\":\"1Gi\",\"cpu\":\"100m\"}},\"ports\":[{\"containerPort\":"
        + "80}]}],\"terminationGracePeriodSeconds\":30,\"securityContext\":{}}}";
    MapValue ds = (MapValue) Json.read("{\"metadata\":{\"name\":\"web\",\"namespace\":"
        + "\"ns\"},\"spec\":{\"template\":" + template + "}}");
    assertThat(DaemonSetUtils.templateHash(ds)).isEqualTo("65d4f7c448");
    assertThat(DaemonSetUtils.revisionName(ds, "65d4f7c448")).isEqualTo("web-65d4f7c448");
    MapValue collided = (MapValue) Nested.set(ds, io.apiserver4j.core.Value.of(1), "status",
        "collisionCount");
    assertThat(DaemonSetUtils.templateHash(collided)).isEqualTo("7ffdb44b97");
  }

  /** kube's AddOrUpdateDaemonPodTolerations: the six tolerations, plus network for hostNetwork. */
  @Test
  void daemonTolerations() {
    MapValue spec = DaemonSetUtils.addDaemonTolerations((MapValue) Json.read(
        "{\"tolerations\":[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}]}"));
    assertThat(Nested.list(spec, "tolerations")).containsExactly(
        Json.read("{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\"}"),
        Json.read("{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\"}"),
        Json.read("{\"key\":\"node.kubernetes.io/disk-pressure\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}"),
        Json.read("{\"key\":\"node.kubernetes.io/memory-pressure\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}"),
        Json.read("{\"key\":\"node.kubernetes.io/pid-pressure\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}"),
        Json.read("{\"key\":\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}"));
    MapValue host = DaemonSetUtils.addDaemonTolerations((MapValue) Json.read(
        "{\"hostNetwork\":true}"));
    assertThat(Nested.list(host, "tolerations")).hasSize(7).last().isEqualTo(Json.read(
        "{\"key\":\"node.kubernetes.io/network-unavailable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoSchedule\"}"));
  }

  /**
   * kube's TestReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become the single
   * node-name term; preferred affinity is kept; the target node is read back from it.
   */
  @Test
  void nodeNameAffinity() {
    MapValue spec = (MapValue) Json.read("{\"affinity\":{\"nodeAffinity\":{"
        + "\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":1,\"preference\":"
        + "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\"}]}}],"
        + "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
        + "[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}]}}}}");
    MapValue out = DaemonSetUtils.withNodeNameAffinity(spec, "node-1");
    assertThat(Nested.getOrNull(out, "affinity", "nodeAffinity")).isEqualTo(Json.read(
        "{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":1,\"preference\":"
            + "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\"}]}}],"
            + "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
            + "[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":"
            + "[\"node-1\"]}]}]}}"));
    MapValue pod = MapValue.ofEntries("spec", out);
    assertThat(DaemonSetUtils.targetNodeName(pod)).contains("node-1");
    assertThat(DaemonSetUtils.targetNodeName((MapValue) Json.read(
        "{\"spec\":{\"nodeName\":\"node-2\"}}"))).contains("node-2");
    assertThat(DaemonSetUtils.targetNodeName((MapValue) Json.read("{\"spec\":{}}"))).isEmpty();
  }

  /** kube's TestIsPodUpdated: the hash label or the template generation label. */
  @Test
  void isPodUpdated() {
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"labels\":{\"controller-revision-hash\":"
        + "\"abc\",\"pod-template-generation\":\"2\"}}}");
    assertThat(DaemonSetUtils.isPodUpdated(pod, "abc", Optional.empty())).isTrue();
    assertThat(DaemonSetUtils.isPodUpdated(pod, "xyz", Optional.of(2L))).isTrue();
    assertThat(DaemonSetUtils.isPodUpdated(pod, "xyz", Optional.of(3L))).isFalse();
    assertThat(DaemonSetUtils.isPodUpdated(pod, "", Optional.empty())).isFalse();
  }
}
