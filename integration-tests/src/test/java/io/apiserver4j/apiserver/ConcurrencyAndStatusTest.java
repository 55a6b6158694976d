/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Spec section 5: optimistic concurrency and the Status bodies of conflicts and lookups. */
class ConcurrencyAndStatusTest {
  private final Fixtures f = new Fixtures();

  private MapValue createCm(String name) {
    return f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: %s}
        data: {a: "1"}
        """.formatted(name)), "test").orThrow();
  }

  @Test
  void staleResourceVersionIsAConflictWithKubesMessage() {
    MapValue v1 = createCm("cm");
    f.update(CONFIGMAPS, "default", "cm", v1.with("data", json("{\"a\":\"2\"}")), "a").orThrow();

    ApiResponse r = f.update(CONFIGMAPS, "default", "cm", v1.with("data", json("{\"a\":\"3\"}")),
        "b");

    assertThat(r.code()).isEqualTo(409);
    assertThat(r.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"Operation cannot be fulfilled on"
        + " configmaps \\\"cm\\\": the object has been modified; please apply your changes to the"
        + " latest version and try again\",\"reason\":\"Conflict\",\"details\":{\"name\":\"cm\","
        + "\"kind\":\"configmaps\"},\"code\":409}"));
    assertThat(str(f.get(CONFIGMAPS, "default", "cm").body(), "data", "a")).isEqualTo("2");
  }

  @Test
  void staleResourceVersionInAMergePatchOrAnApplyBodyConflictsToo() {
    MapValue v1 = createCm("cm");
    f.update(CONFIGMAPS, "default", "cm", v1, "a").orThrow();
    String stale = str(v1, "metadata", "resourceVersion");
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"a\":\"9\"}}", "x")
        .orThrow();

    ApiResponse merge = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"resourceVersion\":\"" + stale + "\"},\"data\":{\"a\":\"3\"}}", "b");
    ApiResponse apply = f.apply(CONFIGMAPS, "default", "cm", "c", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, resourceVersion: "%s"}
        """.formatted(stale));

    assertThat(merge.code()).isEqualTo(409);
    assertThat(str(merge.body(), "message")).endsWith("the object has been modified; please apply"
        + " your changes to the latest version and try again");
    assertThat(apply.code()).isEqualTo(409);
    assertThat(str(apply.body(), "reason")).isEqualTo("Conflict");
  }

  @Test
  void updateWithoutResourceVersionIsUnconditionalWhereTheStrategyAllowsIt() {
    MapValue v1 = createCm("cm");
    MapValue body = v1.with("metadata", ((MapValue) v1.getOrNull("metadata"))
        .without("resourceVersion")).with("data", json("{\"a\":\"2\"}"));

    MapValue updated = f.update(CONFIGMAPS, "default", "cm", body, "a").orThrow();

    assertThat(str(updated, "data", "a")).isEqualTo("2");
  }

  @Test
  void updateWithoutResourceVersionIsInvalidWhereTheStrategyForbidsIt() {
    f.create(CRDS, "", yaml(CrdTest.WIDGET_CRD), "test").orThrow();
    MapValue crd = f.get(CRDS, "", "widgets.example.com").orThrow();
    MapValue body = crd.with("metadata", ((MapValue) crd.getOrNull("metadata"))
        .without("resourceVersion"));

    ApiResponse r = f.update(CRDS, "", "widgets.example.com", body, "a");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("customresourcedefinitions.apiextensions.k8s.io"
        + " \"widgets.example.com\" is invalid: metadata.resourceVersion: Invalid value: 0: must"
        + " be specified for an update");
    assertThat(at(r.body(), "details")).isEqualTo(json("{\"name\":\"widgets.example.com\","
        + "\"group\":\"apiextensions.k8s.io\",\"kind\":\"customresourcedefinitions\",\"causes\":"
        + "[{\"reason\":\"FieldValueInvalid\",\"message\":\"Invalid value: 0: must be specified"
        + " for an update\",\"field\":\"metadata.resourceVersion\"}]}"));
  }

  @Test
  void aUidInAPutBodyIsAPrecondition() {
    MapValue v1 = createCm("cm");
    MapValue body = v1.with("metadata", ((MapValue) v1.getOrNull("metadata"))
        .with("uid", Value.of("other-uid")));

    ApiResponse r = f.update(CONFIGMAPS, "default", "cm", body, "a");

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "message")).isEqualTo("Operation cannot be fulfilled on configmaps"
        + " \"cm\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm,"
        + " ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition:"
        + " other-uid, UID in object meta: uid-1");
  }

  @Test
  void changingTheUidThroughAPatchIsInvalid() {
    createCm("cm");

    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"uid\":\"other\"}}", "a");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("ConfigMap \"cm\" is invalid: metadata.uid:"
        + " Invalid value: \"other\": field is immutable");
  }

  @Test
  void deletePreconditionsAreCheckedWithKubesMessages() {
    createCm("cm");

    ApiResponse uid = f.server.handle(req(Verb.DELETE, CONFIGMAPS, "default", "cm")
        .preconditionUid("nope").build());
    ApiResponse rv = f.server.handle(req(Verb.DELETE, CONFIGMAPS, "default", "cm")
        .preconditionResourceVersion("1").build());

    assertThat(uid.code()).isEqualTo(409);
    assertThat(str(uid.body(), "message")).isEqualTo("Operation cannot be fulfilled on ConfigMap"
        + " \"cm\": the UID in the precondition (nope) does not match the UID in record (uid-1)."
        + " The object might have been deleted and then recreated");
    assertThat(rv.code()).isEqualTo(409);
    assertThat(str(rv.body(), "message")).isEqualTo("Operation cannot be fulfilled on ConfigMap"
        + " \"cm\": the ResourceVersion in the precondition (1) does not match the"
        + " ResourceVersion in record (2). The object might have been modified");
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(200);
  }

  @Test
  void notFoundAndAlreadyExistsBodies() {
    createCm("cm");

    ApiResponse missing = f.get(CONFIGMAPS, "default", "nope");
    ApiResponse exists = f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        """), "x");
    ApiResponse missingDeployment = f.get(Fixtures.DEPLOYMENTS, "default", "nope");

    assertThat(missing.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"nope\\\" not"
        + " found\",\"reason\":\"NotFound\",\"details\":{\"name\":\"nope\",\"kind\":"
        + "\"configmaps\"},\"code\":404}"));
    assertThat(exists.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"cm\\\" already"
        + " exists\",\"reason\":\"AlreadyExists\",\"details\":{\"name\":\"cm\",\"kind\":"
        + "\"configmaps\"},\"code\":409}"));
    assertThat(str(missingDeployment.body(), "message"))
        .isEqualTo("deployments.apps \"nope\" not found");
    assertThat(at(missingDeployment.body(), "details", "group")).isEqualTo(Value.of("apps"));
  }

  @Test
  void sixteenThreadsUpdatingOneObjectLoseNoUpdate() throws Exception {
    createCm("counter");
    int threads = 16;
    int perThread = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      results.add(pool.submit(() -> {
        start.await();
        int conflicts = 0;
        for (int i = 0; i < perThread; i++) {
          while (true) {
            MapValue cur = f.get(CONFIGMAPS, "default", "counter").orThrow();
            MapValue data = (MapValue) cur.getOrNull("data");
            long n = Long.parseLong(str(data, "a"));
            MapValue next = cur.with("data", data.with("a", Value.of(Long.toString(n + 1)))
                .with("t" + id, Value.of(Integer.toString(i))));
            ApiResponse r = f.update(CONFIGMAPS, "default", "counter", next, "writer-" + id);
            if (r.code() == 200) {
              break;
            }
            assertThat(r.code()).isEqualTo(409);
            conflicts++;
          }
        }
        return conflicts;
      }));
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
    for (Future<Integer> r : results) {
      r.get();
    }

    MapValue last = f.get(CONFIGMAPS, "default", "counter").orThrow();
    assertThat(str(last, "data", "a")).isEqualTo(Integer.toString(1 + threads * perThread));
    for (int t = 0; t < threads; t++) {
      assertThat(str(last, "data", "t" + t)).isEqualTo(Integer.toString(perThread - 1));
    }
  }

  @Test
  void sixteenThreadsPatchingOneObjectRetryInsteadOfFailing() throws Exception {
    createCm("shared");
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<ApiResponse>> results = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      results.add(pool.submit(() -> {
        start.await();
        return f.patch(CONFIGMAPS, "default", "shared", PatchType.MERGE_PATCH,
            "{\"data\":{\"k" + id + "\":\"v\"}}", "m" + id);
      }));
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
    Set<Integer> codes = new HashSet<>();
    for (Future<ApiResponse> r : results) {
      codes.add(r.get().code());
    }

    assertThat(codes).containsExactly(200);
    MapValue last = f.get(CONFIGMAPS, "default", "shared").orThrow();
    assertThat(((MapValue) last.getOrNull("data")).size()).isEqualTo(threads + 1);
    // 17 Update managers are more than the cap of 10: the oldest went into ancient-changes
    assertThat(Fixtures.managedFields(last).size()).isEqualTo(10);
    assertThat(Json.write(Fixtures.managedFields(last))).contains("\"manager\":\"ancient-changes\"");
  }

  @Test
  void resourceVersionsOnlyGrow() {
    MapValue a = createCm("a");
    MapValue b = createCm("b");
    MapValue a2 = f.patch(CONFIGMAPS, "default", "a", PatchType.MERGE_PATCH,
        "{\"data\":{\"x\":\"y\"}}", "m").orThrow();

    long ra = Long.parseLong(str(a, "metadata", "resourceVersion"));
    long rb = Long.parseLong(str(b, "metadata", "resourceVersion"));
    long ra2 = Long.parseLong(str(a2, "metadata", "resourceVersion"));
    assertThat(ra).isLessThan(rb);
    assertThat(rb).isLessThan(ra2);
  }

  @Test
  void unknownResourceIsNotFound() {
    ApiResponse r = f.server.handle(ApiRequest.builder(Verb.GET,
        new GroupVersionResource("example.com", "v1", "things")).namespace("default").name("x")
        .build());

    assertThat(r.code()).isEqualTo(404);
    assertThat(str(r.body(), "message")).isEqualTo("the server could not find the requested"
        + " resource");
    assertThat(Json.write(r.body())).contains("\"reason\":\"NotFound\"");
  }
}
