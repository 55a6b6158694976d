/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.statefulset;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The expectations of kube's stateful_set_utils_test.go: TestGetParentNameAndOrdinal,
 * TestIdentityMatches, TestStorageMatches, TestUpdateIdentity, TestUpdateStorage,
 * TestIsRunningAndReady, TestNewPodControllerRef / TestCreateApplyRevision (the patch and its
 * application) and TestUpdateClaimOwnerRefs / TestClaimOwnerMatchesSetAndPod (the retention
 * policy's owner references).
 */
class StatefulSetUtilsTest {
  private static final MapValue REF = (MapValue) Json.read("{\"apiVersion\":\"apps/v1\","
      + "\"kind\":\"StatefulSet\",\"name\":\"foo\",\"uid\":\"set-uid\",\"controller\":true,"
      + "\"blockOwnerDeletion\":true}");

  /** kube's newStatefulSet(replicas): set foo in default, claim template datadir. */
  private static MapValue set(int replicas) {
    return (MapValue) Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\","
        + "\"metadata\":{\"name\":\"foo\",\"namespace\":\"default\",\"uid\":\"set-uid\"},"
        + "\"spec\":{\"replicas\":" + replicas + ",\"serviceName\":\"governingsvc\","
        + "\"selector\":{\"matchLabels\":{\"foo\":\"bar\"}},\"updateStrategy\":{\"type\":"
        + "\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":"
        + "\"nginx\",\"volumeMounts\":[{\"name\":\"datadir\",\"mountPath\":\"/tmp/\"},{\"name\":"
        + "\"home\",\"mountPath\":\"/home\"}]}],\"volumes\":[{\"name\":\"home\",\"hostPath\":"
        + "{\"path\":\"/tmp/home\"}}]}},\"volumeClaimTemplates\":[{\"metadata\":{\"name\":"
        + "\"datadir\"},\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1\"}}}}]}}");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "foo-0, foo, 0",
      "foo-12, foo, 12",
      "foo-bar-3, foo-bar, 3",
      "foo, '', -1",
      "foo-, '', -1",
      "foo-x, '', -1",
      "foo-99999999999, foo, -1",
  })
  void parentAndOrdinal(String name, String parent, int ordinal) {
    StatefulSetUtils.ParentAndOrdinal po = StatefulSetUtils.parentAndOrdinal(name);
    assertThat(po.parent()).isEqualTo(parent == null ? "" : parent);
    assertThat(po.ordinal()).isEqualTo(ordinal);
  }

  @Test
  void newPodHasIdentityStorageAndControllerRef() {
    MapValue set = set(3);
    MapValue pod = StatefulSetUtils.newPod(set, 1, REF);
    assertThat(Meta.metaString(pod, "name")).isEqualTo("foo-1");
    assertThat(Meta.metaString(pod, "namespace")).isEqualTo("default");
    assertThat(Meta.metaString(pod, "generateName")).isEqualTo("foo-");
    assertThat(Meta.labels(pod)).isEqualTo(Map.of("foo", "bar",
        "statefulset.kubernetes.io/pod-name", "foo-1", "apps.kubernetes.io/pod-index", "1"));
    assertThat(Nested.str(pod, "spec", "hostname")).isEqualTo("foo-1");
    assertThat(Nested.str(pod, "spec", "subdomain")).isEqualTo("governingsvc");
    assertThat(Nested.list(pod, "metadata", "ownerReferences")).containsExactly(REF);
    assertThat(StatefulSetUtils.identityMatches(set, pod)).isTrue();
    assertThat(StatefulSetUtils.storageMatches(set, pod)).isTrue();
    // the claim volume first, then the template's own volumes
    assertThat(Nested.list(pod, "spec", "volumes")).containsExactly(
        Json.read("{\"name\":\"datadir\",\"persistentVolumeClaim\":{\"claimName\":"
            + "\"datadir-foo-1\"}}"),
        Json.read("{\"name\":\"home\",\"hostPath\":{\"path\":\"/tmp/home\"}}"));
  }

  /** kube's TestIdentityMatches: each broken part of the identity is detected. */
  @Test
  void identityMatches() {
    MapValue set = set(3);
    MapValue pod = StatefulSetUtils.newPod(set, 1, REF);
    assertThat(StatefulSetUtils.identityMatches(set,
        Meta.withMetaString(pod, "name", "foo-2"))).isFalse();
    assertThat(StatefulSetUtils.identityMatches(set,
        Meta.withMetaString(pod, "name", "bar-1"))).isFalse();
    assertThat(StatefulSetUtils.identityMatches(set,
        Meta.withMetaString(pod, "namespace", "other"))).isFalse();
    MapValue noLabel = Meta.withMeta(pod, "labels", MapValue.ofEntries("foo", Value.of("bar")));
    assertThat(StatefulSetUtils.identityMatches(set, noLabel)).isFalse();
    // kube's TestUpdateIdentity: the identity is restored
    MapValue fixed = StatefulSetUtils.updateIdentity(set, noLabel);
    assertThat(StatefulSetUtils.identityMatches(set, fixed)).isTrue();
    MapValue wrongNs = StatefulSetUtils.updateIdentity(set,
        Meta.withMetaString(pod, "namespace", "other"));
    assertThat(Meta.metaString(wrongNs, "namespace")).isEqualTo("default");
  }

  /** kube's TestStorageMatches and TestUpdateStorage. */
  @Test
  void storageMatchesAndIsRestored() {
    MapValue set = set(3);
    MapValue pod = StatefulSetUtils.newPod(set, 1, REF);
    MapValue wrongClaim = Nested.set(pod, ListValue.of(List.of(Json.read(
        "{\"name\":\"datadir\",\"persistentVolumeClaim\":{\"claimName\":\"datadir-foo-2\"}}"))),
        "spec", "volumes");
    assertThat(StatefulSetUtils.storageMatches(set, wrongClaim)).isFalse();
    MapValue missing = Nested.set(pod, ListValue.of(List.of(Json.read(
        "{\"name\":\"home\",\"hostPath\":{\"path\":\"/tmp/home\"}}"))), "spec", "volumes");
    assertThat(StatefulSetUtils.storageMatches(set, missing)).isFalse();
    MapValue notAClaim = Nested.set(pod, ListValue.of(List.of(Json.read(
        "{\"name\":\"datadir\",\"hostPath\":{\"path\":\"/tmp\"}}"))), "spec", "volumes");
    assertThat(StatefulSetUtils.storageMatches(set, notAClaim)).isFalse();
    MapValue restored = StatefulSetUtils.updateStorage(set, notAClaim);
    assertThat(StatefulSetUtils.storageMatches(set, restored)).isTrue();
    assertThat(Nested.list(restored, "spec", "volumes")).hasSize(1);
    assertThat(StatefulSetUtils.storageMatches(set, Meta.withMetaString(pod, "name", "foo")))
        .isFalse();
  }

  /** kube's getPersistentVolumeClaims: name, namespace, template labels plus matchLabels. */
  @Test
  void claimsCarryTheSelectorLabels() {
    MapValue set = Nested.set(set(3), ListValue.of(List.of(Json.read("{\"metadata\":{\"name\":"
        + "\"datadir\",\"labels\":{\"key\":\"value\"}},\"spec\":{}}"))), "spec",
        "volumeClaimTemplates");
    MapValue claim = StatefulSetUtils.claims(set, 4).get("datadir");
    assertThat(Meta.metaString(claim, "name")).isEqualTo("datadir-foo-4");
    assertThat(Meta.metaString(claim, "namespace")).isEqualTo("default");
    assertThat(Meta.labels(claim)).isEqualTo(Map.of("key", "value", "foo", "bar"));
  }

  /** kube's TestIsRunningAndReady: Running and the Ready condition True. */
  @ParameterizedTest(name = "{0} ready={1}")
  @CsvSource({"Pending, true, false", "Running, false, false", "Running, true, true",
      "'', true, false"})
  void runningAndReady(String phase, boolean ready, boolean expected) {
    MapValue pod = (MapValue) Json.read("{\"status\":{\"phase\":\"" + (phase == null ? ""
        : phase) + "\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True"
            : "False") + "\"}]}}");
    assertThat(StatefulSetUtils.isRunningAndReady(pod)).isEqualTo(expected);
  }

  /** kube's TestCreateApplyRevision: a revision's template replaces the set's. */
  @Test
  void patchAndApplyRevision() {
    MapValue set = set(1);
    MapValue revision = MapValue.ofEntries("data", StatefulSetUtils.patch(set));
    assertThat(Nested.str(revision, "data", "spec", "template", "$patch")).isEqualTo("replace");
    MapValue changed = Nested.set(set, Value.of("nginx:2"), "spec", "template", "spec",
        "containers");
    assertThat(StatefulSetUtils.matches(changed, revision)).isFalse();
    assertThat(StatefulSetUtils.matches(set, revision)).isTrue();
    MapValue restored = StatefulSetUtils.applyRevision(changed, revision);
    assertThat(Nested.getOrNull(restored, "spec", "template"))
        .isEqualTo(Nested.getOrNull(set, "spec", "template"));
    // a revision written with creationTimestamp: null (kube 1.33) still matches
    MapValue old = MapValue.ofEntries("data", Nested.set(StatefulSetUtils.patch(set),
        Value.nullValue(), "spec", "template", "metadata", "creationTimestamp"));
    assertThat(StatefulSetUtils.matches(set, old)).isTrue();
  }

  /**
   * kube's TestUpdateClaimOwnerRefs for the four policies: the set owns the claim when it is
   * deleted with the set (and the Pod is in range or scale-down retains), the Pod owns it when
   * scale-down deletes and the Pod is condemned.
   */
  @ParameterizedTest(name = "whenDeleted={0} whenScaled={1} condemned={2}")
  @CsvSource({
      "Retain, Retain, false, false, false",
      "Retain, Retain, true, false, false",
      "Delete, Retain, false, true, false",
      "Delete, Retain, true, true, false",
      "Retain, Delete, false, false, false",
      "Retain, Delete, true, false, true",
      "Delete, Delete, false, true, false",
      "Delete, Delete, true, false, true",
  })
  void claimOwnerRefs(String whenDeleted, String whenScaled, boolean condemned,
      boolean setOwns, boolean podOwns) {
    MapValue set = Nested.set(set(2), MapValue.ofEntries("whenDeleted", Value.of(whenDeleted),
        "whenScaled", Value.of(whenScaled)), "spec", "persistentVolumeClaimRetentionPolicy");
    MapValue pod = Meta.withMetaString(StatefulSetUtils.newPod(set, condemned ? 3 : 1, REF),
        "uid", "pod-uid");
    // a claim owned by both, to see removals as well as additions
    MapValue claim = (MapValue) Json.read("{\"metadata\":{\"name\":\"c\",\"ownerReferences\":["
        + "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"foo\",\"uid\":"
        + "\"set-uid\"},{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\",\"uid\":"
        + "\"pod-uid\"}]}}");
    Optional<List<Value>> refs = StatefulSetUtils.claimOwnerRefs(set, claim, pod);
    List<Value> now = refs.orElse(Nested.list(claim, "metadata", "ownerReferences"));
    assertThat(now.stream().anyMatch(r -> Nested.str(r, "uid").equals("set-uid")))
        .isEqualTo(setOwns);
    assertThat(now.stream().anyMatch(r -> Nested.str(r, "uid").equals("pod-uid")))
        .isEqualTo(podOwns);
    // applying the answer again changes nothing
    MapValue updated = Meta.withMeta(claim, "ownerReferences", ListValue.of(now));
    assertThat(StatefulSetUtils.claimOwnerRefs(set, updated, pod)).isEmpty();
  }

  /** kube's getStatefulSetMaxUnavailable: ints, percentages rounded up, at least 1. */
  @ParameterizedTest(name = "{0} of {1}")
  @CsvSource({"'', 5, 1", "2, 5, 2", "'\"50%\"', 5, 3", "'\"10%\"', 5, 1", "0, 5, 1"})
  void maxUnavailable(String value, int replicas, int expected) {
    MapValue set = Nested.set(set(replicas), Value.of("RollingUpdate"), "spec",
        "updateStrategy", "type");
    if (value != null && !value.isEmpty()) {
      set = Nested.set(set, Json.read(value), "spec", "updateStrategy", "rollingUpdate",
          "maxUnavailable");
    }
    assertThat(StatefulSetUtils.maxUnavailable(set)).isEqualTo(expected);
  }
}
