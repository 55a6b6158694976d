/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static io.apiserver4j.integration.TestValues.CONFIGMAPS;
import static io.apiserver4j.integration.TestValues.at;
import static io.apiserver4j.integration.TestValues.json;
import static io.apiserver4j.integration.TestValues.managedFields;
import static io.apiserver4j.integration.TestValues.req;
import static io.apiserver4j.integration.TestValues.resourceVersion;
import static io.apiserver4j.integration.TestValues.str;
import static io.apiserver4j.integration.TestValues.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.RegistryListener;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Two embedded API servers, each with its own {@link EtcdStore} (its own etcd client) on the same
 * key prefix of one real etcd: the horizontal-scale story. Everything goes through the API
 * server level ({@link ApiServer#handle}, {@link ApiServer#watch}), never the store directly.
 *
 * <p>Each test gets a fresh key prefix, so tests share the etcd process but no data.
 */
class SharedEtcdApiServersTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static EtcdServer etcd;

  private ApiServer a;
  private ApiServer b;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private String prefix;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void twoServers(TestInfo info) {
    prefix = "/it/" + info.getTestMethod().orElseThrow().getName();
    a = server();
    b = server();
  }

  @AfterEach
  void closeServers() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  /** A server on its own store (and etcd client) over this test's prefix. */
  private ApiServer server() {
    EtcdStore store = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix).build();
    // lists the ConfigMaps of default: no root-ca-cert-publisher (ServiceAccount) here
    ApiServer server = ApiServer.builder().store(store).disableAdmissionPlugins("ServiceAccount").build();
    // the server does not own a store it was given: close the server, then the store
    closeables.add(server);
    closeables.add(store);
    return server;
  }

  private static ResourceClient configMaps(ApiServer server) {
    return server.resources(CONFIGMAPS).namespace("default");
  }

  private static MapValue configMap(String name, String dataYaml) {
    return yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: %s}
        data: %s
        """.formatted(name, dataYaml));
  }

  // --- visibility -------------------------------------------------------------------------------

  @Test
  void anObjectCreatedThroughOneServerIsVisibleThroughTheOtherWithTheSameResourceVersion() {
    MapValue created = configMaps(a).create(configMap("shared", "{k: v}"));

    MapValue got = configMaps(b).get("shared");
    ApiResponse list = b.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build());

    assertThat(got).isEqualTo(created);
    assertThat(resourceVersion(got)).isEqualTo(resourceVersion(created));
    ListValue items = (ListValue) at(list.orThrow(), "items");
    // items of a typed list carry no apiVersion/kind, as in kube
    assertThat(items.items()).containsExactly(created.without("apiVersion").without("kind"));
    // a list's resourceVersion is the revision it was read at: not older than the object
    assertThat(Long.parseLong(str(list.body(), "metadata", "resourceVersion")))
        .isGreaterThanOrEqualTo(Long.parseLong(resourceVersion(created)));
    assertThat(str(got, "metadata", "uid")).isEqualTo(str(created, "metadata", "uid"));
  }

  @Test
  void anUpdateAndADeleteThroughOneServerAreSeenThroughTheOther() {
    MapValue created = configMaps(a).create(configMap("cm", "{k: v1}"));
    MapValue updated = configMaps(b).update(created.with("data", json("{\"k\":\"v2\"}")));

    assertThat(configMaps(a).get("cm")).isEqualTo(updated);
    assertThat(Long.parseLong(resourceVersion(updated)))
        .isGreaterThan(Long.parseLong(resourceVersion(created)));

    configMaps(a).delete("cm");

    assertThat(configMaps(b).find("cm")).isEmpty();
    assertThat(configMaps(b).list()).isEmpty();
  }

  // --- resourceVersion conflicts ---------------------------------------------------------------

  @Test
  void anUpdateWithAResourceVersionMadeStaleByTheOtherServerIsAConflict() {
    MapValue v1 = configMaps(a).create(configMap("cm", "{a: \"1\"}"));
    MapValue v2 = configMaps(a).update(v1.with("data", json("{\"a\":\"2\"}")));

    ApiResponse stale = b.handle(req(Verb.UPDATE, CONFIGMAPS, "default", "cm")
        .body(v1.with("data", json("{\"a\":\"3\"}"))).build());

    assertThat(stale.code()).isEqualTo(409);
    assertThat(stale.body()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"Operation cannot be fulfilled on"
        + " configmaps \\\"cm\\\": the object has been modified; please apply your changes to the"
        + " latest version and try again\",\"reason\":\"Conflict\",\"details\":{\"name\":\"cm\","
        + "\"kind\":\"configmaps\"},\"code\":409}"));
    // the rejected update changed nothing, as seen from either server
    assertThat(configMaps(a).get("cm")).isEqualTo(v2);
    assertThat(configMaps(b).get("cm")).isEqualTo(v2);
  }

  @Test
  void sixteenThreadsAcrossBothServersIncrementingWithRetriesLoseNoUpdate() throws Exception {
    configMaps(a).create(configMap("counter", "{count: \"0\"}"));
    int threads = 16;
    int perThread = 10;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        ApiServer server = t % 2 == 0 ? a : b;
        results.add(pool.submit(() -> {
          start.await();
          int conflicts = 0;
          for (int i = 0; i < perThread; i++) {
            while (true) {
              MapValue current = server.handle(req(Verb.GET, CONFIGMAPS, "default", "counter")
                  .build()).orThrow();
              long count = Long.parseLong(str(current, "data", "count"));
              ApiResponse r = server.handle(req(Verb.UPDATE, CONFIGMAPS, "default", "counter")
                  .body(current.with("data", MapValue.ofEntries("count",
                      Value.of(Long.toString(count + 1))))).build());
              if (r.code() == 409) {
                assertThat(str(r.body(), "reason")).isEqualTo("Conflict");
                conflicts++;
                continue;
              }
              r.orThrow();
              break;
            }
          }
          return conflicts;
        }));
      }
      start.countDown();
      int conflicts = 0;
      for (Future<Integer> f : results) {
        conflicts += f.get(60, TimeUnit.SECONDS);
      }
      // with 16 writers on one object some must have raced; otherwise nothing was tested
      assertThat(conflicts).isPositive();
    } finally {
      pool.shutdownNow();
    }

    MapValue fromA = configMaps(a).get("counter");
    MapValue fromB = configMaps(b).get("counter");
    assertThat(str(fromA, "data", "count")).isEqualTo(Integer.toString(threads * perThread));
    assertThat(fromB).isEqualTo(fromA);
  }

  // --- server-side apply conflicts -------------------------------------------------------------

  private static final String APPLY_X = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm}
      data: {x: "%s"}
      """;

  @Test
  void applyConflictsAcrossServersNameTheOtherManagerAndForceTakesOwnership() {
    MapValue byA = configMaps(a).apply("a", APPLY_X.formatted("from-a"));

    ApiResponse conflict = b.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .fieldManager("b").patch(PatchType.APPLY_YAML, APPLY_X.formatted("from-b")).build());

    assertThat(conflict.code()).isEqualTo(409);
    Status status = conflict.failure().orElseThrow();
    assertThat(str(conflict.body(), "reason")).isEqualTo("Conflict");
    assertThat(status.message())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"a\": .data.x");
    assertThat(status.causes()).containsExactly(
        new StatusCause("FieldManagerConflict", "conflict with \"a\"", ".data.x"));
    assertThat(at(conflict.body(), "details")).isEqualTo(json("{\"causes\":[{\"reason\":"
        + "\"FieldManagerConflict\",\"message\":\"conflict with \\\"a\\\"\","
        + "\"field\":\".data.x\"}]}"));
    assertThat(configMaps(a).get("cm")).isEqualTo(byA);

    MapValue forced = configMaps(b).apply("b", APPLY_X.formatted("from-b"),
        io.apiserver4j.merge.Force.YES);

    MapValue seenByA = configMaps(a).get("cm");
    assertThat(seenByA).isEqualTo(forced);
    assertThat(str(seenByA, "data", "x")).isEqualTo("from-b");
    // a lost its only field, so its entry is gone; b owns .data.x
    ListValue managed = managedFields(seenByA);
    assertThat(managed.size()).isEqualTo(1);
    assertThat(str(managed.get(0), "manager")).isEqualTo("b");
    assertThat(str(managed.get(0), "operation")).isEqualTo("Apply");
    assertThat(at(managed.get(0), "fieldsV1")).isEqualTo(json("{\"f:data\":{\"f:x\":{}}}"));

    // and now it is a's apply through A that conflicts, naming b
    ApiResponse reverse = a.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .fieldManager("a").patch(PatchType.APPLY_YAML, APPLY_X.formatted("from-a")).build());
    assertThat(reverse.code()).isEqualTo(409);
    assertThat(reverse.failure().orElseThrow().message())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"b\": .data.x");
  }

  @Test
  void appliesOfTheSameValueByManagersOnBothServersShareOwnership() {
    configMaps(a).apply("a", APPLY_X.formatted("same"));
    MapValue shared = configMaps(b).apply("b", APPLY_X.formatted("same"));

    // (b's apply changed no value, so, as in kube, its new entry carries no time and sorts first)
    ListValue managed = managedFields(configMaps(a).get("cm"));
    assertThat(managed.items()).extracting(e -> str(e, "manager"))
        .containsExactlyInAnyOrder("a", "b");
    assertThat(managed.items()).extracting(e -> at(e, "fieldsV1"))
        .containsOnly(json("{\"f:data\":{\"f:x\":{}}}"));
    assertThat(configMaps(a).get("cm")).isEqualTo(shared);
  }

  // --- watch -----------------------------------------------------------------------------------

  @Test
  void aWatchOnOneServerSeesTheOtherServersWritesInOrder() throws Exception {
    ApiResponse list = b.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build());
    String listVersion = str(list.orThrow(), "metadata", "resourceVersion");
    try (ApiWatch watch = b.watch(req(Verb.WATCH, CONFIGMAPS, "default", "")
        .resourceVersion(listVersion).build())) {
      MapValue created = configMaps(a).create(configMap("w", "{k: v1}"));
      MapValue modified = configMaps(a).patch("w", PatchType.MERGE_PATCH,
          "{\"data\":{\"k\":\"v2\"}}");
      configMaps(a).delete("w");

      ApiWatchEvent added = next(watch);
      ApiWatchEvent changed = next(watch);
      ApiWatchEvent deleted = next(watch);

      assertThat(added.type()).isEqualTo("ADDED");
      assertThat(added.object()).isEqualTo(created);
      assertThat(changed.type()).isEqualTo("MODIFIED");
      assertThat(changed.object()).isEqualTo(modified);
      assertThat(deleted.type()).isEqualTo("DELETED");
      assertThat(str(deleted.object(), "metadata", "name")).isEqualTo("w");
      assertThat(str(deleted.object(), "data", "k")).isEqualTo("v2");
      assertThat(Long.parseLong(resourceVersion(deleted.object())))
          .isGreaterThan(Long.parseLong(resourceVersion(modified)));
    }
  }

  @Test
  void watchesOnBothServersSeeTheSameEventsFromInterleavedWriters() throws Exception {
    String rv = str(a.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()).orThrow(),
        "metadata", "resourceVersion");
    try (ApiWatch onA = a.watch(req(Verb.WATCH, CONFIGMAPS, "default", "").resourceVersion(rv)
        .build());
        ApiWatch onB = b.watch(req(Verb.WATCH, CONFIGMAPS, "default", "").resourceVersion(rv)
            .build())) {
      List<String> written = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        ApiServer writer = i % 2 == 0 ? a : b;
        written.add(resourceVersion(configMaps(writer).create(configMap("cm" + i, "{k: v}"))));
      }

      List<String> seenByA = new ArrayList<>();
      List<String> seenByB = new ArrayList<>();
      for (int i = 0; i < written.size(); i++) {
        seenByA.add(resourceVersion(next(onA).object()));
        seenByB.add(resourceVersion(next(onB).object()));
      }

      assertThat(seenByA).isEqualTo(written);
      assertThat(seenByB).isEqualTo(written);
    }
  }

  private static ApiWatchEvent next(ApiWatch watch) throws InterruptedException {
    Optional<ApiWatchEvent> e = watch.poll(WAIT);
    assertThat(e).as("a watch event within %s", WAIT).isPresent();
    return e.get();
  }

  // --- custom resources ------------------------------------------------------------------------

  static final String WIDGET_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: widgets.example.com
      spec:
        group: example.com
        names: {plural: widgets, singular: widget, kind: Widget}
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
                    color: {type: string}
                    size: {type: integer}
      """;

  private static final String WIDGET = """
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: %s}
      spec: {color: %s}
      """;

  private static final GroupVersionResource WIDGETS =
      new GroupVersionResource("example.com", "v1", "widgets");

  private static ResourceClient widgets(ApiServer server) {
    return server.resources("example.com/v1", "widgets").namespace("default");
  }

  private static final String WIDGETS_ADDED = "ADDED example.com/v1, Resource=widgets";
  private static final String WIDGETS_REMOVED = "REMOVED example.com/v1, Resource=widgets";

  /** A server's registry changes, which a test can wait for whichever thread reports them. */
  private static final class RegistryChanges implements RegistryListener {
    private final List<String> changes = new ArrayList<>();

    static RegistryChanges of(ApiServer server) {
      RegistryChanges c = new RegistryChanges();
      server.registry().addListener(c);
      return c;
    }

    @Override
    public synchronized void onChange(Change change, ResourceDefinition definition) {
      changes.add(change + " " + definition.resource());
      notifyAll();
    }

    synchronized List<String> changes() {
      return List.copyOf(changes);
    }

    synchronized boolean await(String change) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!changes.contains(change)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  /**
   * Every server lists the CRDs in etcd when it is built and keeps watching them, as
   * kube-apiserver's CRD informer does: a CRD created through A is served by B once B's watch
   * has delivered it, with the CRD's schema, sharing its objects (conflicts and all) with A.
   */
  @Test
  void aCrdCreatedThroughOneServerIsServedByTheOtherOnceItsWatchDeliversIt() throws Exception {
    RegistryChanges onB = RegistryChanges.of(b);

    a.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    // through A at once
    MapValue red = widgets(a).apply("a", WIDGET.formatted("red", "red"));

    assertThat(onB.await(WIDGETS_ADDED)).as("B's registry adds widgets").isTrue();
    MapValue crdThroughB = b.resources(TestValues.CRDS).get("widgets.example.com");
    assertThat(str(crdThroughB, "status", "acceptedNames", "kind")).isEqualTo("Widget");
    assertThat(widgets(b).get("red")).isEqualTo(red);
    MapValue blue = widgets(b).apply("b", WIDGET.formatted("blue", "blue"));
    assertThat(widgets(a).get("blue")).isEqualTo(blue);
    assertThat(widgets(a).list()).extracting(w -> str(w, "metadata", "name"))
        .containsExactly("blue", "red");
    // B serves the CRD's schema: an unknown field is pruned with kube's warning
    ApiResponse pruned = b.handle(req(Verb.CREATE, WIDGETS, "default", "").body(yaml("""
            apiVersion: example.com/v1
            kind: Widget
            metadata: {name: green}
            spec: {color: green, shape: round}
            """)).build());
    assertThat(pruned.code()).isEqualTo(201);
    assertThat(pruned.warnings()).containsExactly("unknown field \"spec.shape\"");
    assertThat(at(widgets(a).get("green"), "spec")).isEqualTo(json("{\"color\":\"green\"}"));
    // and apply conflicts on custom resources cross servers too
    ApiResponse conflict = a.handle(req(Verb.PATCH, WIDGETS, "default", "blue").fieldManager("a")
        .patch(PatchType.APPLY_YAML, WIDGET.formatted("blue", "green")).build());
    assertThat(conflict.failure().orElseThrow().message()).isEqualTo("Apply failed with 1"
        + " conflict: conflict with \"b\": .spec.color");
    // B was told once, by its watch; the CRD's status writes changed nothing more
    assertThat(onB.changes()).containsExactly(WIDGETS_ADDED);
  }

  @Test
  void awaitRevisionWaitsUntilTheOtherServerServesWhatACrdWriteThroughOneServerAsked() {
    a.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    String crdVersion = resourceVersion(a.resources(TestValues.CRDS).get("widgets.example.com"));

    assertThat(b.registry().awaitRevision(Long.parseLong(crdVersion), WAIT)).isTrue();

    assertThat(b.registry().find(WIDGETS)).isPresent();
    MapValue red = widgets(b).apply("b", WIDGET.formatted("red", "red"));
    assertThat(widgets(a).get("red")).isEqualTo(red);
  }

  @Test
  void aServerBuiltLaterServesTheCrdsAlreadyInEtcd() {
    a.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    MapValue red = widgets(a).apply("a", WIDGET.formatted("red", "red"));

    ApiServer later = server();

    // no waiting: the CRDs are listed while the server is built
    assertThat(later.registry().find(WIDGETS)).isPresent();
    assertThat(widgets(later).get("red")).isEqualTo(red);
    ResourceDefinition def = later.registry().find(WIDGETS).orElseThrow();
    assertThat(def.kind().kind()).isEqualTo("Widget");
    assertThat(def.customResource()).isTrue();
  }

  @Test
  void aCrdDeletedThroughOneServerIsNoLongerServedByTheOther() throws Exception {
    RegistryChanges onB = RegistryChanges.of(b);
    a.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    widgets(a).apply("a", WIDGET.formatted("red", "red"));
    assertThat(onB.await(WIDGETS_ADDED)).isTrue();

    a.resources(TestValues.CRDS).delete("widgets.example.com");

    assertThat(onB.await(WIDGETS_REMOVED)).as("B's registry removes widgets").isTrue();
    ApiResponse create = b.handle(req(Verb.CREATE, WIDGETS, "default", "").body(yaml(
        WIDGET.formatted("late", "red"))).build());
    assertThat(create.code()).isEqualTo(404);
    assertThat(b.resources(TestValues.CRDS).find("widgets.example.com")).isEmpty();
    // A deleted the CRD's objects with it: the same CRD created again, through B, has none
    b.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    assertThat(widgets(b).list()).isEmpty();
  }

  @Test
  void whileACrdTerminatesTheOtherServerCreatesNoObjectsAndMayEndIt() throws Exception {
    RegistryChanges onA = RegistryChanges.of(a);
    a.resources(TestValues.CRDS).apply("installer", WIDGET_CRD);
    widgets(a).create(yaml("""
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: held, finalizers: [example.com/hold]}
        spec: {color: red}
        """));
    MapValue terminating = a.handle(req(Verb.DELETE, TestValues.CRDS, "", "widgets.example.com")
        .build()).orThrow();

    assertThat(b.registry().awaitRevision(Long.parseLong(resourceVersion(terminating)), WAIT))
        .isTrue();
    ApiResponse create = b.handle(req(Verb.CREATE, WIDGETS, "default", "").body(yaml(
        WIDGET.formatted("late", "red"))).build());
    assertThat(create.code()).isEqualTo(403);
    assertThat(create.failure().orElseThrow().message()).isEqualTo("widgets.example.com \"late\""
        + " is forbidden: create not allowed while custom resource definition is terminating");
    // the held object is still served, and releasing it through B ends the CRD
    b.handle(req(Verb.PATCH, WIDGETS, "default", "held")
        .patch(PatchType.MERGE_PATCH, "{\"metadata\":{\"finalizers\":null}}").build()).orThrow();

    assertThat(b.registry().find(WIDGETS)).isEmpty();
    assertThat(onA.await(WIDGETS_REMOVED)).as("A's registry removes widgets").isTrue();
    assertThat(a.resources(TestValues.CRDS).find("widgets.example.com")).isEmpty();
  }

  @Test
  void closingTheServersEndsTheirCrdWatches() throws Exception {
    java.util.Set<Thread> before = crdWatchThreads();
    ApiServer c = server();
    ApiServer d = server();
    java.util.Set<Thread> started = new java.util.HashSet<>(crdWatchThreads());
    started.removeAll(before);
    assertThat(started).hasSize(2).allMatch(Thread::isAlive);

    c.close();
    d.close();

    assertThat(started).noneMatch(Thread::isAlive);
  }

  private static java.util.Set<Thread> crdWatchThreads() {
    java.util.Set<Thread> threads = new java.util.HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("apiserver4j-crd-informer-")) {
        threads.add(t);
      }
    }
    return threads;
  }
}
