/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.SERVICES;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Spec section 3: the PATCH content types. */
class PatchTypesTest {
  private final Fixtures f = new Fixtures();

  @BeforeEach
  void setUp() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {a: "1"}
        """), "m").orThrow();
  }

  private ApiResponse patch(String contentType, String body) {
    return f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .rawBody(body.getBytes(StandardCharsets.UTF_8), contentType).build());
  }

  @Test
  void parametersOfTheContentTypeAreIgnored() {
    ApiResponse r = patch("application/merge-patch+json; charset=utf-8",
        "{\"data\":{\"b\":\"2\"}}");

    assertThat(r.code()).isEqualTo(200);
    assertThat(at(r.body(), "data")).isEqualTo(json("{\"a\":\"1\",\"b\":\"2\"}"));
  }

  @Test
  void jsonPatchOperationsApplyInOrder() {
    ApiResponse r = patch(PatchType.JSON_PATCH.mediaType(), "[{\"op\":\"add\",\"path\":"
        + "\"/data/b\",\"value\":\"2\"},{\"op\":\"move\",\"from\":\"/data/a\",\"path\":"
        + "\"/data/c\"},{\"op\":\"test\",\"path\":\"/data/c\",\"value\":\"1\"}]");

    assertThat(r.code()).isEqualTo(200);
    assertThat(at(r.body(), "data")).isEqualTo(json("{\"b\":\"2\",\"c\":\"1\"}"));
  }

  @Test
  void aJsonPatchThatIsNoListIsABadRequest() {
    ApiResponse r = patch(PatchType.JSON_PATCH.mediaType(), "{\"op\":\"add\"}");

    assertThat(r.code()).isEqualTo(400);
  }

  @Test
  void mergePatchNullRemovesAKey() {
    ApiResponse r = patch(PatchType.MERGE_PATCH.mediaType(), "{\"data\":{\"a\":null,\"z\":\"9\"}}");

    assertThat(at(r.body(), "data")).isEqualTo(json("{\"z\":\"9\"}"));
  }

  @Test
  void strategicMergePatchMergesListsByTheirMergeKey() {
    MapValue r = f.patch(DEPLOYMENTS, "default", "d", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":"
            + "\"busybox\"}]}}}}", "editor").orThrow();

    Value containers = at(r, "spec", "template", "spec", "containers");
    assertThat(Json.write(containers)).contains("\"name\":\"c\"").contains("\"name\":\"sidecar\"");
    // the added container gets its defaults as every decoded object does
    assertThat(Json.write(containers)).contains("\"imagePullPolicy\":\"Always\"");
    assertThat(Json.write(at(Fixtures.managedFields(r).get(1), "fieldsV1")))
        .contains("k:{\\\"name\\\":\\\"sidecar\\\"}");
  }

  @Test
  void strategicMergePatchDeleteDirectiveRemovesAnItem() {
    f.patch(DEPLOYMENTS, "default", "d", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":"
            + "\"busybox\"}]}}}}", "editor").orThrow();

    MapValue r = f.patch(DEPLOYMENTS, "default", "d", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"$patch\":\"delete\",\"name\":"
            + "\"sidecar\"}]}}}}", "editor").orThrow();

    assertThat(Json.write(at(r, "spec", "template", "spec", "containers")))
        .doesNotContain("sidecar");
  }

  @Test
  void strategicMergePatchUsesTheMergeKeyNotTheListMapKeys() {
    f.create(SERVICES, "default", yaml("""
        apiVersion: v1
        kind: Service
        metadata: {name: svc}
        spec:
          ports:
          - {port: 80, protocol: TCP, name: http}
        """), "m").orThrow();

    // ports merge by "port" alone for strategic merge patch (SMD keys them by port and protocol)
    MapValue r = f.patch(SERVICES, "default", "svc", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"ports\":[{\"port\":80,\"name\":\"web\"}]}}", "m").orThrow();

    assertThat(at(r, "spec", "ports")).isEqualTo(json("[{\"port\":80,\"protocol\":\"TCP\","
        + "\"name\":\"web\",\"targetPort\":80}]"));
  }

  @Test
  void aPatchThatBreaksTheObjectsShapeIsInvalid() {
    ApiResponse r = patch(PatchType.MERGE_PATCH.mediaType(), "{\"data\":[1]}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "reason")).isEqualTo("Invalid");
    assertThat(str(((io.apiserver4j.core.ListValue) at(r.body(), "details", "causes")).get(0),
        "field")).isEqualTo("patch");
  }

  @Test
  void aPatchMayNotRenameTheObject() {
    ApiResponse name = patch(PatchType.MERGE_PATCH.mediaType(),
        "{\"metadata\":{\"name\":\"other\"}}");
    ApiResponse ns = patch(PatchType.MERGE_PATCH.mediaType(),
        "{\"metadata\":{\"namespace\":\"other\"}}");

    assertThat(name.code()).isEqualTo(400);
    assertThat(str(name.body(), "message")).isEqualTo("the name of the object (other) does not"
        + " match the name on the URL (cm)");
    assertThat(ns.code()).isEqualTo(400);
    assertThat(str(ns.body(), "message")).isEqualTo("the namespace of the provided object does"
        + " not match the namespace sent on the request");
  }

  @Test
  void everyPatchTypeOnAMissingObjectButApplyIsNotFound() {
    for (PatchType t : new PatchType[] {PatchType.JSON_PATCH, PatchType.MERGE_PATCH,
        PatchType.STRATEGIC_MERGE_PATCH}) {
      ApiResponse r = f.patch(CONFIGMAPS, "default", "missing", t, t == PatchType.JSON_PATCH
          ? "[]" : "{}", "m");
      assertThat(r.code()).as(t.toString()).isEqualTo(404);
    }
    ApiResponse apply = f.apply(CONFIGMAPS, "default", "missing", "m", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: missing}
        """);
    assertThat(apply.code()).isEqualTo(201);
  }

  @Test
  void applyAcceptsJsonBodies() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "a",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},"
            + "\"data\":{\"a\":\"1\"}}");

    assertThat(r.code()).isEqualTo(200);
  }

  @Test
  void emptyMetadataMapsAndDataAreNotKeptOnBuiltInKinds() {
    // what kubectl diff's client-side dry run sends; Go's omitempty drops the empty maps
    ApiResponse r = f.server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm").dryRun(true)
        .patch(PatchType.STRATEGIC_MERGE_PATCH, "{\"metadata\":{\"annotations\":{}},"
            + "\"data\":{\"a\":null}}").build());

    assertThat(r.code()).isEqualTo(200);
    assertThat(((MapValue) r.body().getOrNull("metadata")).containsKey("annotations")).isFalse();
    assertThat(r.body().containsKey("data")).isFalse();
  }
}
