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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoreErrors;
import io.apiserver4j.storage.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two API servers over one {@link InMemoryStore}, each through its own {@link InterceptingStore}
 * view, behave as two kube-apiservers on one etcd: custom resources follow the
 * CustomResourceDefinitions in storage, whichever server wrote them.
 */
class SharedStoreCrdTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final GroupVersionResource WIDGETS = CrdTest.WIDGETS;
  private static final GroupVersionResource GADGETS =
      new GroupVersionResource("example.com", "v1", "gadgets");
  private static final String WIDGETS_ADDED = "ADDED example.com/v1, Resource=widgets";
  private static final String WIDGETS_REMOVED = "REMOVED example.com/v1, Resource=widgets";
  private static final String GADGETS_ADDED = "ADDED example.com/v1, Resource=gadgets";
  private static final String GADGETS_REMOVED = "REMOVED example.com/v1, Resource=gadgets";
  private static final String TERMINATING = "create not allowed while custom resource definition"
      + " is terminating";

  static final String GADGET_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.example.com}
      spec:
        group: example.com
        names: {plural: gadgets, singular: gadget, kind: Gadget}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object, properties: {size: {type: integer}}}
      """;

  private static final String WIDGET = """
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: %s}
      spec: {color: %s}
      """;

  private final InMemoryStore shared = InMemoryStore.create();
  private final List<ApiServer> servers = new ArrayList<>();
  private final InterceptingStore storeA = new InterceptingStore(shared);
  private final InterceptingStore storeB = new InterceptingStore(shared);
  private final ApiServer a = server(storeA);
  private final ApiServer b = server(storeB);

  @AfterEach
  void close() {
    servers.forEach(ApiServer::close);
    shared.close();
  }

  private ApiServer server(InterceptingStore store) {
    ApiServer s = ApiServer.builder().store(store).build();
    servers.add(s);
    return s;
  }

  private static ResourceClient crds(ApiServer s) {
    return s.resources(CRDS);
  }

  private static ResourceClient widgets(ApiServer s) {
    return s.resources(WIDGETS).namespace("default");
  }

  private static long resourceVersion(MapValue obj) {
    return Long.parseLong(str(obj, "metadata", "resourceVersion"));
  }

  private static ApiResponse createWidget(ApiServer s, String name) {
    return s.handle(req(Verb.CREATE, WIDGETS, "default", "")
        .body(yaml(WIDGET.formatted(name, "red"))).build());
  }

  // --- following the other server's writes -----------------------------------------------------

  @Test
  void aCrdCreatedThroughOneServerIsServedByTheOtherOnceItsWatchDeliversIt() throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);

    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    // through A itself at once, as before
    MapValue red = widgets(a).apply("a", WIDGET.formatted("red", "red"));

    assertThat(onB.await(WIDGETS_ADDED, WAIT)).isTrue();
    ResourceDefinition def = b.registry().find(WIDGETS).orElseThrow();
    assertThat(def.kind()).isEqualTo(new GroupVersionKind("example.com", "v1", "Widget"));
    assertThat(def.shortNames()).containsExactly("wd");
    assertThat(def.subresources()).containsExactly("status", "scale");
    assertThat(widgets(b).get("red")).isEqualTo(red);
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
    assertThat(onB.events()).containsExactly(WIDGETS_ADDED);
  }

  @Test
  void awaitRevisionReturnsOnceTheRegistryReflectsTheCrdsUpToThatRevision() {
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    long crdVersion = resourceVersion(crds(a).get("widgets.example.com"));

    assertThat(b.registry().awaitRevision(crdVersion, WAIT)).isTrue();

    assertThat(b.registry().find(WIDGETS)).isPresent();
    assertThat(createWidget(b, "w").code()).isEqualTo(201);
    // the revision of any later write will do, CRD or not
    crds(a).delete("widgets.example.com");
    MapValue cm = a.resources(CONFIGMAPS).namespace("default").create(yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        """));
    assertThat(b.registry().awaitRevision(resourceVersion(cm), WAIT)).isTrue();
    assertThat(b.registry().find(WIDGETS)).isEmpty();
    // a revision the store has not reached yet is not reflected
    assertThat(b.registry().awaitRevision(shared.currentRevision() + 1000, Duration.ofMillis(20)))
        .isFalse();
    assertThatThrownBy(() -> b.registry().awaitRevision(-1, WAIT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.registry().awaitRevision(1, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aServerBuiltLaterServesTheEstablishedCrdsInStorage() {
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    MapValue red = widgets(a).apply("a", WIDGET.formatted("red", "red"));
    // gadgets asks for the kind Widget, which widgets has: not established, so not served
    crds(a).apply("installer", GADGET_CRD.replace("kind: Gadget", "kind: Widget"));
    assertThat(str(crds(a).get("gadgets.example.com"), "status", "conditions"))
        .contains("\"type\":\"Established\",\"status\":\"False\"");

    ApiServer c = server(new InterceptingStore(shared));

    ResourceDefinition viaA = a.registry().find(WIDGETS).orElseThrow();
    ResourceDefinition viaC = c.registry().find(WIDGETS).orElseThrow();
    assertThat(viaC.kind()).isEqualTo(viaA.kind());
    assertThat(viaC.shortNames()).isEqualTo(viaA.shortNames());
    assertThat(viaC.subresources()).isEqualTo(viaA.subresources());
    assertThat(viaC.storageVersion()).isEqualTo(viaA.storageVersion());
    assertThat(widgets(c).get("red")).isEqualTo(red);
    assertThat(c.registry().find(GADGETS)).isEmpty();
    assertThat(c.registry().all()).hasSameSizeAs(a.registry().all());
  }

  @Test
  void schemaVersionAndNameChangesThroughOneServerReachTheOther() throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    assertThat(onB.await(WIDGETS_ADDED, WAIT)).isTrue();

    // a field added to v1's schema, and a second served version
    String v2 = CrdTest.WIDGET_CRD
        .replace("              color: {type: string}\n",
            "              color: {type: string}\n              shape: {type: string}\n")
        .replace("  versions:\n", """
              versions:
              - name: v2
                served: true
                storage: false
                schema:
                  openAPIV3Schema:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
            """);
    crds(a).apply("installer", v2);

    // one change per version, in the order of spec.versions
    assertThat(onB.await("REPLACED example.com/v1, Resource=widgets", WAIT)).isTrue();
    assertThat(onB.events()).containsExactly(WIDGETS_ADDED,
        "ADDED example.com/v2, Resource=widgets", "REPLACED example.com/v1, Resource=widgets");
    ApiResponse shaped = b.handle(req(Verb.CREATE, WIDGETS, "default", "").body(yaml("""
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: round}
        spec: {color: red, shape: round}
        """)).build());
    assertThat(shaped.code()).isEqualTo(201);
    assertThat(shaped.warnings()).isEmpty();
    assertThat(b.resources("example.com/v2", "widgets").namespace("default").get("round"))
        .isNotNull();

    // new names: kind and short names
    crds(a).apply("installer", v2.replace("kind: Widget", "kind: Gizmo")
        .replace("shortNames: [wd]", "shortNames: [wd, gz]"));

    assertThat(onB.await("REPLACED example.com/v2, Resource=widgets", WAIT)).isTrue();
    ResourceDefinition renamed = b.registry().find(WIDGETS).orElseThrow();
    assertThat(renamed.kind().kind()).isEqualTo("Gizmo");
    assertThat(renamed.shortNames()).containsExactly("wd", "gz");
    assertThat(b.registry().findByKind(new GroupVersionKind("example.com", "v1", "Widget")))
        .isEmpty();

    // v2 no longer served
    crds(a).apply("installer", v2.replace("kind: Widget", "kind: Gizmo")
        .replace("shortNames: [wd]", "shortNames: [wd, gz]")
        .replace("served: true\n    storage: false", "served: false\n    storage: false"));

    assertThat(onB.await("REMOVED example.com/v2, Resource=widgets", WAIT)).isTrue();
    assertThat(b.registry().find(new GroupVersionResource("example.com", "v2", "widgets")))
        .isEmpty();
    assertThat(b.registry().find(WIDGETS)).isPresent();
  }

  // --- deletion --------------------------------------------------------------------------------

  @Test
  void aCrdDeletedThroughOneServerIsNoLongerServedByTheOtherAndItsObjectsAreDeletedOnce()
      throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    widgets(a).apply("a", WIDGET.formatted("red", "red"));
    widgets(a).apply("a", WIDGET.formatted("blue", "blue"));
    assertThat(onB.await(WIDGETS_ADDED, WAIT)).isTrue();

    crds(a).delete("widgets.example.com");

    assertThat(onB.await(WIDGETS_REMOVED, WAIT)).isTrue();
    assertThat(b.registry().find(WIDGETS)).isEmpty();
    assertThat(createWidget(b, "late").code()).isEqualTo(404);
    assertThat(b.handle(req(Verb.GET, CRDS, "", "widgets.example.com").build()).code())
        .isEqualTo(404);
    // A, which deleted the CRD, deleted each object once, then the CRD and the APIService
    // registered for its group version (kube's crdRegistrationController); B deleted nothing
    assertThat(storeA.deletes).extracting(ObjectKey::resource, ObjectKey::name)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("widgets", "red"),
            org.assertj.core.groups.Tuple.tuple("widgets", "blue"),
            org.assertj.core.groups.Tuple.tuple("customresourcedefinitions",
                "widgets.example.com"),
            org.assertj.core.groups.Tuple.tuple("apiservices", "v1.example.com"));
    assertThat(storeB.deletes).isEmpty();
    assertThat(onB.events()).containsExactly(WIDGETS_ADDED, WIDGETS_REMOVED);
  }

  @Test
  void whileACrdTerminatesNeitherServerCreatesObjectsAndTheLastObjectsDeletionEndsIt()
      throws Exception {
    RegistryEvents onA = RegistryEvents.of(a);
    RegistryEvents onB = RegistryEvents.of(b);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    widgets(a).create(yaml("""
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: held, finalizers: [example.com/hold]}
        spec: {color: red}
        """));

    ApiResponse deleted = a.handle(req(Verb.DELETE, CRDS, "", "widgets.example.com").build());

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(at(deleted.body(), "metadata", "deletionTimestamp")).isNotNull();
    // the deleting server refuses new objects at once
    ApiResponse viaA = createWidget(a, "late");
    assertThat(viaA.code()).isEqualTo(403);
    assertThat(viaA.failure().orElseThrow().message())
        .isEqualTo("widgets.example.com \"late\" is forbidden: " + TERMINATING);
    // B's watch delivers changes in order: once it delivered a later one, it saw the deletion
    crds(a).apply("installer", GADGET_CRD);
    assertThat(onB.await(GADGETS_ADDED, WAIT)).isTrue();
    ApiResponse viaB = createWidget(b, "late");
    assertThat(viaB.code()).isEqualTo(403);
    assertThat(viaB.failure().orElseThrow().message())
        .isEqualTo("widgets.example.com \"late\" is forbidden: " + TERMINATING);
    ApiResponse applied = b.handle(req(Verb.PATCH, WIDGETS, "default", "late").fieldManager("b")
        .patch(PatchType.APPLY_YAML, WIDGET.formatted("late", "red")).build());
    assertThat(applied.code()).isEqualTo(403);
    assertThat(applied.failure().orElseThrow().message())
        .isEqualTo("widgets.example.com \"late\" is forbidden: " + TERMINATING);
    // what exists is still served, so that its finalizer can be removed through either server
    assertThat(widgets(b).get("held")).isNotNull();
    assertThat(onB.events()).containsExactly(WIDGETS_ADDED, GADGETS_ADDED);

    MapValue released = b.handle(req(Verb.PATCH, WIDGETS, "default", "held")
        .patch(PatchType.MERGE_PATCH, "{\"metadata\":{\"finalizers\":null}}").build()).orThrow();

    assertThat(str(released, "metadata", "name")).isEqualTo("held");
    // B deleted the last object, and so the CRD (kube's finalizer controller on B)
    assertThat(b.registry().find(WIDGETS)).isEmpty();
    assertThat(onA.await(WIDGETS_REMOVED, WAIT)).isTrue();
    assertThat(a.handle(req(Verb.GET, CRDS, "", "widgets.example.com").build()).code())
        .isEqualTo(404);
    assertThat(createWidget(a, "late").code()).isEqualTo(404);
    assertThat(storeB.deletes).extracting(ObjectKey::name)
        .containsExactly("held", "widgets.example.com");
    assertThat(storeA.deletes).isEmpty();
  }

  @Test
  void deletingTheCrdCollectionDeletesTheirObjectsAndEveryServerStopsServingThem()
      throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    crds(a).apply("installer", GADGET_CRD);
    widgets(a).apply("a", WIDGET.formatted("red", "red"));
    a.resources(GADGETS).namespace("default").create(yaml("""
        apiVersion: example.com/v1
        kind: Gadget
        metadata: {name: g}
        spec: {size: 1}
        """));

    ApiResponse r = a.handle(req(Verb.DELETE_COLLECTION, CRDS, "", "").build());

    assertThat(r.code()).isEqualTo(200);
    assertThat(a.registry().find(WIDGETS)).isEmpty();
    assertThat(a.registry().find(GADGETS)).isEmpty();
    assertThat(onB.await(WIDGETS_REMOVED, WAIT)).isTrue();
    assertThat(onB.await(GADGETS_REMOVED, WAIT)).isTrue();
    // with the last CRD of example.com/v1 its APIService goes (kube's crdRegistrationController)
    assertThat(storeA.deletes).extracting(ObjectKey::name).containsExactlyInAnyOrder("red", "g",
        "widgets.example.com", "gadgets.example.com", "v1.example.com");
    assertThat(storeB.deletes).isEmpty();
  }

  // --- this server's own writes ----------------------------------------------------------------

  @Test
  void theWatchsLateCopiesOfThisServersOwnWritesChangeNothing() throws Exception {
    RegistryEvents onA = RegistryEvents.of(a);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    widgets(a).apply("a", WIDGET.formatted("red", "red"));
    crds(a).apply("installer", CrdTest.WIDGET_CRD.replace("shortNames: [wd]", "shortNames: [w]"));

    // a CRD written through B reaches A through A's watch, after A's own writes
    crds(b).apply("installer", GADGET_CRD);

    assertThat(onA.await(GADGETS_ADDED, WAIT)).isTrue();
    assertThat(onA.events()).containsExactly(WIDGETS_ADDED,
        "REPLACED example.com/v1, Resource=widgets", GADGETS_ADDED);
    assertThat(a.registry().find(WIDGETS).orElseThrow().shortNames()).containsExactly("w");
  }

  // --- the watch's recovery --------------------------------------------------------------------

  @Test
  void afterAnErrorOrAClosedWatchTheServerWatchesAgainFromTheLastRevisionItSaw()
      throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);
    int lists = storeB.crdLists.get();
    assertThat(storeB.awaitCrdWatchOpen(WAIT)).isTrue();

    storeB.holdCrdWatches();
    storeB.endCrdWatches(new WatchEvent.Failure(StatusErrors.internal("etcd went away")
        .status()));
    assertThat(storeB.awaitCrdWatchRequest(WAIT)).isTrue();
    // written while B does not watch
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    storeB.release();

    assertThat(onB.await(WIDGETS_ADDED, WAIT)).isTrue();

    assertThat(storeB.awaitCrdWatchOpen(WAIT)).isTrue();
    storeB.holdCrdWatches();
    storeB.endCrdWatches(null);
    assertThat(storeB.awaitCrdWatchRequest(WAIT)).isTrue();
    crds(a).apply("installer", GADGET_CRD);
    storeB.release();

    assertThat(onB.await(GADGETS_ADDED, WAIT)).isTrue();
    // resumed, not listed again
    assertThat(storeB.crdLists.get()).isEqualTo(lists);
  }

  @Test
  void whenTheRevisionItSawIsCompactedTheServerListsTheCrdsAgain() throws Exception {
    RegistryEvents onB = RegistryEvents.of(b);
    crds(a).apply("installer", CrdTest.WIDGET_CRD);
    assertThat(onB.await(WIDGETS_ADDED, WAIT)).isTrue();

    assertThat(storeB.awaitCrdWatchOpen(WAIT)).isTrue();
    storeB.holdCrdWatches();
    storeB.endCrdWatches(null);
    assertThat(storeB.awaitCrdWatchRequest(WAIT)).isTrue();
    // while B does not watch: widgets goes, gadgets comes, and the history is compacted
    crds(a).delete("widgets.example.com");
    crds(a).apply("installer", GADGET_CRD);
    shared.compact(shared.currentRevision());
    storeB.release();

    assertThat(onB.await(WIDGETS_REMOVED, WAIT)).isTrue();
    assertThat(onB.await(GADGETS_ADDED, WAIT)).isTrue();
    assertThat(b.registry().find(WIDGETS)).isEmpty();
    assertThat(b.registry().find(GADGETS)).isPresent();

    // a 410 ERROR event on an open watch: listed again too
    int lists = storeB.crdLists.get();
    assertThat(storeB.awaitCrdWatchOpen(WAIT)).isTrue();
    storeB.holdCrdWatches();
    storeB.endCrdWatches(new WatchEvent.Failure(StoreErrors.tooOldResourceVersion(1, 2)
        .status()));
    assertThat(storeB.awaitCrdWatchRequest(WAIT)).isTrue();
    assertThat(storeB.crdLists.get()).isEqualTo(lists + 1);
    storeB.release();
    crds(a).delete("gadgets.example.com");
    assertThat(onB.await(GADGETS_REMOVED, WAIT)).isTrue();
  }

  // --- lifecycle -------------------------------------------------------------------------------

  private static Set<Thread> informerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("apiserver4j-crd-informer-"))
        .collect(Collectors.toSet());
  }

  @Test
  void closingTheServersEndsTheirWatchThreads() throws Exception {
    Set<Thread> before = informerThreads();
    InterceptingStore refusing = new InterceptingStore(shared);
    refusing.refuseCrdWatches(StatusErrors.internal("etcd is unavailable"));
    List<ApiServer> built = List.of(
        ApiServer.builder().store(new InterceptingStore(shared)).build(),
        ApiServer.builder().build(),
        ApiServer.builder().store(refusing).build());
    // the server whose watches are refused keeps trying
    assertThat(refusing.awaitCrdWatchRequest(WAIT)).isTrue();
    assertThat(refusing.awaitCrdWatchRequest(WAIT)).isTrue();
    Set<Thread> started = new HashSet<>(informerThreads());
    started.removeAll(before);
    assertThat(started).hasSize(3).allMatch(Thread::isAlive);

    built.forEach(ApiServer::close);

    assertThat(started).noneMatch(Thread::isAlive);
    built.get(0).close();
    // a closed server's registry waits for nothing more
    assertThat(built.get(0).registry().awaitRevision(shared.currentRevision() + 1, WAIT))
        .isFalse();
  }

  @Test
  void aServerWithoutCrdsDoesNotWatchThemAndABuildThatCannotListThemFails() {
    Set<Thread> before = informerThreads();

    try (ApiServer plain = ApiServer.builder().builtinResources(false).store(shared).build()) {
      assertThat(plain.registry().awaitRevision(shared.currentRevision() + 1, Duration.ZERO))
          .isTrue();
    }
    InterceptingStore failing = new InterceptingStore(shared);
    failing.failCrdLists(StatusErrors.internal("etcd is unavailable"));
    assertThatThrownBy(() -> ApiServer.builder().store(failing).build())
        .isInstanceOf(StatusException.class).hasMessageContaining("etcd is unavailable");

    Set<Thread> started = new HashSet<>(informerThreads());
    started.removeAll(before);
    assertThat(started).isEmpty();
  }
}
