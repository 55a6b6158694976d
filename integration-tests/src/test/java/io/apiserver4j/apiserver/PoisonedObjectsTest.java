/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 1: a value the server cannot write back is never stored. Every poison is
 * rejected with a client error, and afterwards GET, LIST and a running WATCH still work.
 */
class PoisonedObjectsTest {
  static final String THINGS_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: things.example.com}
      spec:
        group: example.com
        names: {plural: things, singular: thing, kind: Thing}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    free: {x-kubernetes-preserve-unknown-fields: true}
                    port: {x-kubernetes-int-or-string: true}
      """;
  static final GroupVersionResource THINGS =
      new GroupVersionResource("example.com", "v1", "things");

  private final Fixtures f = new Fixtures();
  private ApiWatch configMaps;
  private ApiWatch deployments;

  @BeforeEach
  void setUp() {
    f.create(DEPLOYMENTS, "default", yaml(Fixtures.DEPLOYMENT_YAML), "kubectl").orThrow();
    configMaps = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS).namespace("default")
        .build());
    deployments = f.server.watch(ApiRequest.builder(Verb.WATCH, DEPLOYMENTS).namespace("default")
        .resourceVersion(rv(f.get(DEPLOYMENTS, "default", "d").orThrow())).build());
  }

  @AfterEach
  void tearDown() {
    configMaps.close();
    deployments.close();
  }

  private static String rv(MapValue obj) {
    return str(obj, "metadata", "resourceVersion");
  }

  private ApiResponse raw(Verb verb, GroupVersionResource gvr, String name, String body,
      String type) {
    return f.server.handle(req(verb, gvr, "default", name)
        .rawBody(body.getBytes(StandardCharsets.UTF_8), type).build());
  }

  /** GET, LIST and the running watches still work, and nothing was written. */
  private void assertHealthy(GroupVersionResource gvr, ApiWatch watch, String name)
      throws Exception {
    ApiResponse list = f.server.handle(req(Verb.LIST, gvr, "default", "").build());
    assertThat(list.code()).isEqualTo(200);
    for (var item : ((ListValue) list.body().getOrNull("items")).items()) {
      assertThat(f.get(gvr, "default", str(item, "metadata", "name")).code()).isEqualTo(200);
    }
    // the next event of the running watch is the next good write, nothing before it
    f.server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "")
        .body(yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name + "}}"))
        .build()).orThrow();
    if (gvr.equals(DEPLOYMENTS)) {
      f.patch(DEPLOYMENTS, "default", "d", PatchType.MERGE_PATCH,
          "{\"metadata\":{\"labels\":{\"next\":\"" + name + "\"}}}", "m").orThrow();
    }
    if (watch != null) {
      Optional<ApiWatchEvent> e = watch.poll(Duration.ofSeconds(10));
      assertThat(e).isPresent();
      assertThat(e.get().type()).isEqualTo(gvr.equals(DEPLOYMENTS) ? "MODIFIED" : "ADDED");
      assertThat(e.get().object().toString()).contains(name);
    }
  }

  @Test
  void anOverflowingNumberInACreateIsABadRequest() throws Exception {
    ApiResponse r = raw(Verb.CREATE, CONFIGMAPS, "",
        "{\"metadata\":{\"name\":\"inf\",\"generation\":1e400}}", "application/json");
    assertThat(r.code()).isEqualTo(400);
    assertThat(str(r.body(), "reason")).isEqualTo("BadRequest");
    // kube's text from Go's decoder (into interface{}: float64; into ObjectMeta: int64)
    assertThat(str(r.body(), "message"))
        .contains("json: cannot unmarshal number 1e400 into Go ");
    assertThat(f.get(CONFIGMAPS, "default", "inf").code()).isEqualTo(404);
    assertHealthy(CONFIGMAPS, configMaps, "after-create");
  }

  @Test
  void aYamlInfinityInACreateIsABadRequest() throws Exception {
    ApiResponse r = raw(Verb.CREATE, CONFIGMAPS, "",
        "metadata: {name: inf}\ndata: {a: b}\nbinaryData: .inf\n", "application/yaml");
    assertThat(r.code()).isEqualTo(400);
    assertThat(str(r.body(), "message")).contains("json: unsupported value: +Inf");
    assertHealthy(CONFIGMAPS, configMaps, "after-yaml");
  }

  @Test
  void anOverflowingNumberInAnUpdateOrPatchIsRejected() throws Exception {
    MapValue live = f.get(DEPLOYMENTS, "default", "d").orThrow();
    String put = io.apiserver4j.core.Json.write(live).replace("\"replicas\":1", "\"replicas\":1e400");
    assertThat(raw(Verb.UPDATE, DEPLOYMENTS, "d", put, "application/json").code()).isEqualTo(400);
    for (PatchType type : new PatchType[] {PatchType.MERGE_PATCH, PatchType.STRATEGIC_MERGE_PATCH}) {
      ApiResponse r = f.patch(DEPLOYMENTS, "default", "d", type, "{\"spec\":{\"replicas\":1e400}}",
          "m");
      assertThat(r.code()).as(type.toString()).isEqualTo(400);
    }
    ApiResponse jp = f.patch(DEPLOYMENTS, "default", "d", PatchType.JSON_PATCH,
        "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":1e400}]", "m");
    assertThat(jp.code()).isEqualTo(400);
    ApiResponse apply = f.apply(DEPLOYMENTS, "default", "d", "m",
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
            + "\"spec\":{\"replicas\":1e400}}");
    // kube reads an apply body as YAML, where yaml.v2 leaves an overflowing literal a string;
    // the typed conversion then fails with kube's own 500
    assertThat(apply.code()).isEqualTo(500);
    assertThat(str(apply.body(), "message")).endsWith(
        ".spec.replicas: expected numeric (int or float), got string \"1e400\"");
    assertThat(str(f.get(DEPLOYMENTS, "default", "d").orThrow(), "spec", "replicas"))
        .isEqualTo("1");
    assertHealthy(DEPLOYMENTS, deployments, "after-patches");
  }

  private static String nested(int depth) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      sb.append(i % 2 == 0 ? "{\"a\":" : "[");
    }
    sb.append("1");
    for (int i = depth - 1; i >= 0; i--) {
      sb.append(i % 2 == 0 ? "}" : "]");
    }
    return sb.toString();
  }

  private ApiWatch installThings() {
    f.create(CRDS, "", yaml(THINGS_CRD), "kubectl").orThrow();
    return f.server.watch(ApiRequest.builder(Verb.WATCH, THINGS).namespace("default").build());
  }

  @Test
  void aDeepSchemalessValueIsStoredAndReadBack() throws Exception {
    try (ApiWatch things = installThings()) {
      // 5 levels above the value: object, spec, free; kube's decoder allows 10,000 in all
      String body = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Thing\",\"metadata\":"
          + "{\"name\":\"deep\"},\"spec\":{\"free\":" + nested(9_990) + "}}";
      ApiResponse r = raw(Verb.CREATE, THINGS, "", body, "application/json");
      assertThat(r.code()).isEqualTo(201);
      assertThat(f.get(THINGS, "default", "deep").code()).isEqualTo(200);
      ApiResponse list = f.server.handle(req(Verb.LIST, THINGS, "default", "").build());
      assertThat(list.code()).isEqualTo(200);
      Optional<ApiWatchEvent> e = things.poll(Duration.ofSeconds(10));
      assertThat(e).isPresent();
      assertThat(e.get().type()).isEqualTo("ADDED");
      ApiResponse merge = f.patch(THINGS, "default", "deep", PatchType.MERGE_PATCH,
          "{\"spec\":{\"free\":" + nested(9_990).replace("1", "2") + "}}", "m");
      assertThat(merge.code()).isEqualTo(200);
      ApiResponse apply = f.apply(THINGS, "default", "deep", "applier",
          "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"deep\"},"
              + "\"spec\":{\"free\":" + nested(9_990).replace("1", "3") + "}}");
      assertThat(apply.code()).isIn(200, 409);
      // a small change to the deep object walks all of it
      ApiResponse label = f.patch(THINGS, "default", "deep", PatchType.MERGE_PATCH,
          "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}", "m");
      assertThat(label.code()).isEqualTo(200);
      // what a client read, written back as is (managedFields as deep as the value)
      String read = io.apiserver4j.core.Json.write(f.get(THINGS, "default", "deep").orThrow());
      ApiResponse put = raw(Verb.UPDATE, THINGS, "deep", read, "application/json");
      assertThat(put.code()).as(put.body().toString().substring(0, 200)).isEqualTo(200);
      String tooDeep = body.replace(nested(9_990), nested(10_000));
      assertThat(raw(Verb.CREATE, THINGS, "", tooDeep.replace("deep", "deeper"),
          "application/json").code()).isEqualTo(400);
      assertThat(f.get(THINGS, "default", "deep").code()).isEqualTo(200);
    }
  }

  @Test
  void aDeepValueInAnIntOrStringFieldDoesNotOverflowTheStack() throws Exception {
    try (ApiWatch things = installThings()) {
      String body = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Thing\",\"metadata\":"
          + "{\"name\":\"deep\"},\"spec\":{\"port\":" + nested(5_000) + "}}";
      ApiResponse r = raw(Verb.CREATE, THINGS, "", body, "application/json");
      // kube answers 422 (must be of type integer,string) from CRD validation; here the point
      // is that the schema walks survive the depth and nothing unreadable is stored
      assertThat(r.code()).as(r.body().toString()).isNotEqualTo(500);
      assertThat(f.server.handle(req(Verb.LIST, THINGS, "default", "").build()).code())
          .isEqualTo(200);
      assertThat(f.get(THINGS, "default", "deep").code()).isIn(200, 404);
    }
  }
}
