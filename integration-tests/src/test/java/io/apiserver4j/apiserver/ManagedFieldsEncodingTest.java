/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.entry;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.managedFields;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spec section 1: how {@code metadata.managedFields} is written. */
class ManagedFieldsEncodingTest {
  private final Fixtures f = new Fixtures();

  private static final String CM = """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: cm
        labels: {a: "1"}
        annotations: {note: x}
        finalizers: [example.com/keep]
        ownerReferences:
        - {apiVersion: v1, kind: Pod, name: p, uid: pod-uid}
      data: {k: v}
      """;

  private static List<String> order(MapValue obj) {
    List<String> out = new ArrayList<>();
    for (Value e : managedFields(obj).items()) {
      out.add(str(e, "manager") + "/" + str(e, "operation"));
    }
    return out;
  }

  @Test
  void entriesHaveKubesFieldsInKubesOrderWithTimeInWholeSeconds() {
    f.clock.advance(Duration.ofMillis(789));
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();

    MapValue e = entry(obj, 0);
    assertThat(List.copyOf(e.asMap().keySet())).containsExactly("manager", "operation",
        "apiVersion", "time", "fieldsType", "fieldsV1");
    assertThat(str(e, "time")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(str(e, "fieldsType")).isEqualTo("FieldsV1");
  }

  @Test
  void systemMetadataIsNeverOwnedButLabelsAnnotationsFinalizersAndOwnerReferencesAre() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();

    assertThat(at(entry(obj, 0), "fieldsV1")).isEqualTo(json("{\"f:data\":{\".\":{},\"f:k\":{}},"
        + "\"f:metadata\":{\"f:annotations\":{\".\":{},\"f:note\":{}},\"f:finalizers\":{\".\":{},"
        + "\"v:\\\"example.com/keep\\\"\":{}},\"f:labels\":{\".\":{},\"f:a\":{}},"
        + "\"f:ownerReferences\":{\".\":{},\"k:{\\\"uid\\\":\\\"pod-uid\\\"}\":{}}}}"));
  }

  @Test
  void subresourceEntriesNameTheirSubresourceLast() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    MapValue obj = f.server.handle(req(Verb.PATCH, DEPLOYMENTS, "default", "d")
        .subresource("status").fieldManager("controller")
        .patch(PatchType.MERGE_PATCH, "{\"status\":{\"replicas\":1}}").build()).orThrow();

    MapValue e = entry(obj, 1);
    assertThat(List.copyOf(e.asMap().keySet())).containsExactly("manager", "operation",
        "apiVersion", "time", "fieldsType", "fieldsV1", "subresource");
    assertThat(str(e, "subresource")).isEqualTo("status");
    assertThat(at(e, "fieldsV1")).isEqualTo(json("{\"f:status\":{\"f:replicas\":{}}}"));
  }

  @Test
  void entriesAreOrderedByOperationThenSecondThenManager() {
    f.create(CONFIGMAPS, "default", yaml(CM), "zeta").orThrow();
    f.clock.advance(Duration.ofSeconds(1));
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"b\":\"1\"}}",
        "beta").orThrow();
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"a\":\"1\"}}",
        "alpha").orThrow();
    f.clock.advance(Duration.ofSeconds(1));
    MapValue obj = f.apply(CONFIGMAPS, "default", "cm", "applier", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {c: "1"}
        """).orThrow();

    assertThat(order(obj)).containsExactly("applier/Apply", "zeta/Update", "alpha/Update",
        "beta/Update");
  }

  @Test
  void aManagersTimeMovesOnlyWhenItsFieldsChange() {
    f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    f.clock.advance(Duration.ofMinutes(1));
    MapValue unchanged = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"k\":\"v\"}}", "m").orThrow();
    assertThat(str(entry(unchanged, 0), "time")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(str(unchanged, "metadata", "resourceVersion")).isEqualTo("2");

    f.clock.advance(Duration.ofMinutes(1));
    MapValue changed = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"k\":\"w\"}}", "m").orThrow();
    assertThat(str(entry(changed, 0), "time")).isEqualTo("2024-01-02T03:06:05Z");
  }

  @Test
  void takingFieldsAwayDoesNotChangeTheOtherManagersTime() {
    f.create(CONFIGMAPS, "default", yaml(CM), "first").orThrow();
    f.clock.advance(Duration.ofMinutes(1));

    MapValue obj = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"k\":\"other\"}}", "second").orThrow();

    assertThat(order(obj)).containsExactly("first/Update", "second/Update");
    assertThat(str(entry(obj, 0), "time")).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(Json.write(at(entry(obj, 0), "fieldsV1"))).doesNotContain("f:k");
  }

  @Test
  void aNoOpApplyChangesNeitherTimeNorResourceVersion() {
    String config = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {k: v}
        """;
    MapValue first = f.apply(CONFIGMAPS, "default", "cm", "a", config).orThrow();
    f.clock.advance(Duration.ofMinutes(5));

    MapValue again = f.apply(CONFIGMAPS, "default", "cm", "a", config).orThrow();

    assertThat(again).isEqualTo(first);
  }

  @Test
  void aNoOpApplyByANewManagerAddsAnEntryWithoutTime() {
    String config = """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {k: v}
        """;
    f.apply(CONFIGMAPS, "default", "cm", "a", config).orThrow();
    f.clock.advance(Duration.ofMinutes(5));

    MapValue obj = f.apply(CONFIGMAPS, "default", "cm", "b", config).orThrow();

    assertThat(order(obj)).containsExactly("b/Apply", "a/Apply");
    assertThat(entry(obj, 0).containsKey("time")).isFalse();
    assertThat(str(entry(obj, 1), "time")).isEqualTo("2024-01-02T03:04:05Z");
  }

  @Test
  void updatesUnionAManagersFieldsWhileAppliesReplaceThem() {
    f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {a: "1"}
        """), "u").orThrow();
    MapValue updated = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"b\":\"2\"}}", "u").orThrow();
    assertThat(at(entry(updated, 0), "fieldsV1")).isEqualTo(json(
        "{\"f:data\":{\".\":{},\"f:a\":{},\"f:b\":{}}}"));

    f.apply(CONFIGMAPS, "default", "cm", "ap", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, labels: {x: "1"}}
        data: {c: "3"}
        """).orThrow();
    MapValue applied = f.apply(CONFIGMAPS, "default", "cm", "ap", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {d: "4"}
        """).orThrow();
    assertThat(at(entry(applied, 0), "fieldsV1")).isEqualTo(json("{\"f:data\":{\"f:d\":{}}}"));
  }

  @Test
  void anUpdateWithoutAManagerRecordsUnknown() {
    MapValue obj = f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml(CM)).build()).orThrow();

    assertThat(str(entry(obj, 0), "manager")).isEqualTo("unknown");
  }

  @Test
  void managedFieldsSentInAnUpdateAreUsedAndTheLaterOfTwoIdenticalEntriesWins() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();
    ListValue given = (ListValue) json("[{\"manager\":\"x\",\"operation\":\"Update\","
        + "\"apiVersion\":\"v1\",\"time\":\"2020-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\","
        + "\"fieldsV1\":{\"f:data\":{\"f:k\":{}}}},{\"manager\":\"x\",\"operation\":\"Update\","
        + "\"apiVersion\":\"v1\",\"time\":\"2021-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\","
        + "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}}]");
    MapValue body = obj.with("metadata", ((MapValue) obj.getOrNull("metadata"))
        .with("managedFields", given));

    MapValue out = f.update(CONFIGMAPS, "default", "cm", body, "creator").orThrow();

    assertThat(managedFields(out).size()).isEqualTo(1);
    assertThat(str(entry(out, 0), "time")).isEqualTo("2021-01-01T00:00:00Z");
    assertThat(at(entry(out, 0), "fieldsV1"))
        .isEqualTo(json("{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}"));
  }

  @Test
  void canonicalManagedFieldsRoundTripByteForByte() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();
    String canonical = "[{\"manager\":\"m\",\"operation\":\"Apply\",\"apiVersion\":\"v1\","
        + "\"time\":\"2001-02-03T04:05:06Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{"
        + "\"f:data\":{\".\":{},\"f:k\":{}},\"f:metadata\":{\"f:finalizers\":{"
        + "\"v:\\\"example.com/keep\\\"\":{}},\"f:ownerReferences\":{\"k:{\\\"uid\\\":"
        + "\\\"pod-uid\\\"}\":{}}}}},{\"manager\":\"s\",\"operation\":"
        + "\"Update\",\"apiVersion\":\"v1\",\"time\":\"2001-02-03T04:05:06Z\",\"fieldsType\":"
        + "\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:x\":{}}},\"subresource\":\"status\"}]";
    MapValue body = obj.with("metadata", ((MapValue) obj.getOrNull("metadata"))
        .with("managedFields", json(canonical)));

    MapValue out = f.server.handle(req(Verb.UPDATE, CONFIGMAPS, "default", "cm").body(body)
        .fieldManager("m").build()).orThrow();

    assertThat(Json.write(at(out, "metadata", "managedFields"))).isEqualTo(canonical);
  }

  @Test
  void anEmptyManagedSetIsWrittenAsNoManagedFieldsAtAll() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: bare}
        """), "creator").orThrow();

    assertThat(((MapValue) obj.getOrNull("metadata")).containsKey("managedFields")).isFalse();
  }

  @Test
  void timestampOnlyChangesAreNotWritten() {
    MapValue first = f.create(CONFIGMAPS, "default", yaml(CM), "m").orThrow();
    f.clock.advance(Duration.ofMinutes(1));
    MapValue body = first.with("metadata", ((MapValue) first.getOrNull("metadata"))
        .with("managedFields", json("[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":"
            + "\"v1\",\"time\":\"2030-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
            + Json.write(at(entry(first, 0), "fieldsV1")) + "}]")));

    MapValue out = f.update(CONFIGMAPS, "default", "cm", body, "m").orThrow();

    assertThat(str(out, "metadata", "resourceVersion"))
        .isEqualTo(str(first, "metadata", "resourceVersion"));
    assertThat(str(entry(out, 0), "time")).isEqualTo("2024-01-02T03:04:05Z");
  }

  @Test
  void unknownEntryTypesInFieldsV1AreIgnored() {
    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();
    MapValue body = obj.with("metadata", ((MapValue) obj.getOrNull("metadata"))
        .with("managedFields", json("[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":"
            + "\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:k\":{}},"
            + "\"z:future\":{\"f:x\":{}}}}]")));

    MapValue out = f.update(CONFIGMAPS, "default", "cm", body, "m").orThrow();

    assertThat(at(entry(out, 0), "fieldsV1")).isEqualTo(json("{\"f:data\":{\"f:k\":{}}}"));
    assertThat(Optional.ofNullable(at(entry(out, 0), "time"))).isEmpty();
  }

  @Test
  void aCreatedDeploymentIsOwnedAsKubeApiserverRecordsIt() {
    // the object a create starts from is the kind's Go zero value, and the created object has
    // the shape of kube's structs: the creator owns the defaults and resources: {} but not the
    // struct nodes spec, strategy, template or containers themselves
    MapValue obj = f.create(DEPLOYMENTS, "default", yaml("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: nginx, labels: {app: nginx}}
        spec:
          selector: {matchLabels: {app: nginx}}
          template:
            metadata: {labels: {app: nginx}}
            spec:
              containers:
              - {name: nginx, image: nginx}
        """), "kubectl-create").orThrow();

    assertThat(at(entry(obj, 0), "fieldsV1")).isEqualTo(yaml("""
        f:metadata:
          f:labels:
            .: {}
            f:app: {}
        f:spec:
          f:progressDeadlineSeconds: {}
          f:replicas: {}
          f:revisionHistoryLimit: {}
          f:selector: {}
          f:strategy:
            f:rollingUpdate:
              .: {}
              f:maxSurge: {}
              f:maxUnavailable: {}
            f:type: {}
          f:template:
            f:metadata:
              f:labels:
                .: {}
                f:app: {}
            f:spec:
              f:containers:
                k:{"name":"nginx"}:
                  .: {}
                  f:image: {}
                  f:imagePullPolicy: {}
                  f:name: {}
                  f:resources: {}
                  f:terminationMessagePath: {}
                  f:terminationMessagePolicy: {}
              f:dnsPolicy: {}
              f:restartPolicy: {}
              f:schedulerName: {}
              f:securityContext: {}
              f:terminationGracePeriodSeconds: {}
        """));
    // ObjectMeta.creationTimestamp is omitzero in 1.36 (apimachinery v0.36 types.go): a
    // template's zero time is left out rather than written as null
    assertThat(Nested.has(obj, "spec", "template", "metadata", "creationTimestamp")).isFalse();
    assertThat(Nested.map(obj, "spec", "template", "metadata").isEmpty()).isFalse();
    assertThat(at(obj, "status")).isEqualTo(json("{}"));
  }
}
