/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.InvalidException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The namespace controller (kube's pkg/controller/namespace) run by the manager in place of the
 * server's own: a namespace full of objects is deleted after kube's 5 s grace period on the
 * server clock, reports what its own finalizers keep in its conditions (kube's reasons and
 * messages), and goes once the last finalizer does; kube's namespaced_resources_deleter_test
 * cases of the finalize step (other finalizers kept) and of a namespace that is not being
 * deleted.
 */
class NamespaceScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final GroupVersionResource SECRETS =
      new GroupVersionResource("", "v1", "secrets");
  private static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock).build();
    controllers = ControllerManager.builder(api).clock(clock).controllers("namespace").start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private void advance(long seconds) {
    clock.set(clock.instant().plusSeconds(seconds));
    idle();
  }

  private ResourceClient namespaces() {
    return api.resources(NAMESPACES);
  }

  private void createNamespace(String name, String... extraFinalizers) {
    List<String> finalizers = new ArrayList<>(List.of(extraFinalizers));
    MapValue ns = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(name)));
    if (!finalizers.isEmpty()) {
      ns = Nested.set(ns, ListValue.ofStrings(finalizers), "spec", "finalizers");
    }
    namespaces().create(ns);
  }

  private MapValue configMap(String name, String... finalizers) {
    MapValue cm = (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}");
    return finalizers.length == 0 ? cm : Meta.withFinalizers(cm, List.of(finalizers));
  }

  private void fill(String namespace) {
    api.resources(CONFIGMAPS).namespace(namespace).create(configMap("plain"));
    api.resources(CONFIGMAPS).namespace(namespace).create(configMap("held", "example.com/hold"));
    api.resources(SECRETS).namespace(namespace).create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},\"stringData\":{\"k\":\"v\"}}"));
    api.resources(DEPLOYMENTS).namespace(namespace).create(Json.read("{\"apiVersion\":"
        + "\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
        + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{"
        + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
        + "\"image\":\"nginx\"}]}}}}"));
  }

  private List<String> configMapNames(String namespace) {
    return api.resources(CONFIGMAPS).namespace(namespace).list().stream()
        .map(cm -> Meta.metaString(cm, "name")).toList();
  }

  /** The namespace's conditions as type to status|reason|message. */
  private Map<String, String> conditions(String name) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Value c : Nested.list(namespaces().get(name), "status", "conditions")) {
      out.put(Nested.str(c, "type"), Nested.str(c, "status") + "|" + Nested.str(c, "reason")
          + "|" + Nested.str(c, "message"));
    }
    return out;
  }

  @Test
  void aFullNamespaceIsEmptiedReportsWhatItsFinalizersKeepAndGoesAfterThem() {
    createNamespace("full");
    fill("full");
    namespaces().delete("full");
    idle();
    // kube's namespaceDeletionGracePeriod: nothing happens before 5 s have passed
    assertThat(configMapNames("full")).contains("plain", "held");
    assertThat(Nested.str(namespaces().get("full"), "status", "phase"))
        .isEqualTo("Terminating");

    advance(5);
    assertThat(configMapNames("full")).containsExactly("held");
    assertThat(api.resources(SECRETS).namespace("full").list()).isEmpty();
    assertThat(api.resources(DEPLOYMENTS).namespace("full").list()).isEmpty();
    MapValue ns = namespaces().get("full");
    assertThat(Meta.stringList(Nested.getOrNull(ns, "spec", "finalizers")))
        .containsExactly("kubernetes");
    assertThat(conditions("full")).containsExactly(
        Map.entry("NamespaceDeletionDiscoveryFailure",
            "False|ResourcesDiscovered|All resources successfully discovered"),
        Map.entry("NamespaceDeletionGroupVersionParsingFailure",
            "False|ParsedGroupVersions|All legacy kube types successfully parsed"),
        Map.entry("NamespaceDeletionContentFailure", "False|ContentDeleted|All content"
            + " successfully deleted, may be waiting on finalization"),
        Map.entry("NamespaceContentRemaining", "True|SomeResourcesRemain|Some resources are"
            + " remaining: configmaps. has 1 resource instances"),
        Map.entry("NamespaceFinalizersRemaining", "True|SomeFinalizerRemain|Some finalizers are"
            + " remaining: example.com/hold in 1 resource instances"));

    // the object's owner lets it go; the conditions' write queued the namespace again after
    // kube's 5 s grace period (before the retry after the estimate, 15 s / 2 + 1), and that
    // pass finalizes it
    ResourceClient cms = api.resources(CONFIGMAPS).namespace("full");
    cms.update(Meta.withFinalizers(cms.get("held"), List.of()));
    advance(4);
    assertThat(namespaces().find("full")).isPresent();
    advance(1);
    assertThat(namespaces().find("full")).isEmpty();
  }

  @Test
  void theFinalizeStepKeepsOtherFinalizersAndTheNamespaceStaysUntilTheyGo() {
    // kube's TestFinalizeNamespaceFunc: only the token "kubernetes" is removed
    createNamespace("shared", "other.example.com/cleanup");
    namespaces().delete("shared");
    advance(5);
    MapValue ns = namespaces().get("shared");
    assertThat(Meta.stringList(Nested.getOrNull(ns, "spec", "finalizers")))
        .containsExactly("other.example.com/cleanup");
    assertThat(Nested.str(ns, "status", "phase")).isEqualTo("Terminating");
    assertThat(conditions("shared")).containsEntry("NamespaceContentRemaining",
        "False|ContentRemoved|All content successfully removed");

    // the other controller finishes through namespaces/finalize too
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NAMESPACES).name("shared")
        .subresource("finalize").options(UpdateOptions.defaults())
        .body(Nested.set(ns, ListValue.ofStrings(List.of()), "spec", "finalizers")).build())
        .orThrow();
    assertThat(namespaces().find("shared")).isEmpty();
  }

  @Test
  void aNamespaceNotBeingDeletedIsLeftAlone() {
    createNamespace("live");
    api.resources(CONFIGMAPS).namespace("live").create(configMap("plain"));
    advance(60);
    MapValue ns = namespaces().get("live");
    assertThat(Nested.str(ns, "status", "phase")).isEqualTo("Active");
    assertThat(Nested.has(ns, "status", "conditions")).isFalse();
    assertThat(configMapNames("live")).contains("plain");
  }

  @Test
  void finalizeRefusesAFinalizerThatIsNeitherStandardNorQualified() {
    createNamespace("bad");
    MapValue ns = namespaces().get("bad");
    assertThatThrownBy(() -> api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NAMESPACES)
        .name("bad").subresource("finalize").options(UpdateOptions.defaults())
        .body(Nested.set(ns, ListValue.ofStrings(List.of("kubernetes", "plain")), "spec",
            "finalizers")).build()).orThrow())
        .isInstanceOf(InvalidException.class)
        .hasMessageContaining("spec.finalizers[1]")
        .hasMessageContaining("name is neither a standard finalizer name nor is it fully"
            + " qualified");
  }

  @Test
  void theServerDeletesNothingItselfWhileTheManagerRunsTheControllerAndResumesAfter() {
    assertThat(api.builtinControllers()).contains("namespace");
    createNamespace("handed");
    api.resources(CONFIGMAPS).namespace("handed").create(configMap("plain"));
    namespaces().delete("handed");
    idle();
    // the server's own controller would have emptied it synchronously
    assertThat(configMapNames("handed")).contains("plain");
    controllers.close();
    // given back, the server's controller catches up at once
    assertThat(namespaces().find("handed")).isEmpty();
    controllers = ControllerManager.builder(api).clock(clock).controllers("namespace").start();
  }

  @Test
  void podsGoFirstAndTheirGracePeriodIsWaitedForAsKubesEstimate() {
    createNamespace("pods");
    try {
      api.resources(new GroupVersionResource("", "v1", "serviceaccounts")).namespace("pods")
          .create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
              + "\"metadata\":{\"name\":\"default\"}}"));
    } catch (io.apiserver4j.core.errors.AlreadyExistsException e) {
      // the server's serviceaccount controller wrote it first
    }
    ResourceClient pods = api.resources(new GroupVersionResource("", "v1", "pods"))
        .namespace("pods");
    pods.create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"p\"},\"spec\":{\"nodeName\":\"n1\",\"terminationGracePeriodSeconds\":30,"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    api.resources(CONFIGMAPS).namespace("pods").create(configMap("plain"));
    namespaces().delete("pods");
    advance(5);
    // the running Pod is being deleted gracefully; nothing else goes before it
    assertThat(Nested.has(pods.get("p"), "metadata", "deletionTimestamp")).isTrue();
    assertThat(configMapNames("pods")).contains("plain");
    assertThat(Meta.stringList(Nested.getOrNull(namespaces().get("pods"), "spec",
        "finalizers"))).containsExactly("kubernetes");

    // the kubelet confirms the Pod's end; the next pass comes 5 s after the conditions' write
    pods.delete("p", io.apiserver4j.apiserver.DeleteOptions.builder().gracePeriodSeconds(0)
        .build());
    advance(4);
    assertThat(configMapNames("pods")).contains("plain");
    advance(1);
    assertThat(namespaces().find("pods")).isEmpty();
  }

  @Test
  void aPodThatOutlivesItsGracePeriodIsRetriedAfterHalfTheEstimate() {
    createNamespace("slow");
    try {
      api.resources(new GroupVersionResource("", "v1", "serviceaccounts")).namespace("slow")
          .create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
              + "\"metadata\":{\"name\":\"default\"}}"));
    } catch (io.apiserver4j.core.errors.AlreadyExistsException e) {
      // the server's serviceaccount controller wrote it first
    }
    ResourceClient pods = api.resources(new GroupVersionResource("", "v1", "pods"))
        .namespace("slow");
    pods.create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"p\"},\"spec\":{\"nodeName\":\"n1\",\"terminationGracePeriodSeconds\":30,"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    namespaces().delete("slow");
    advance(5);
    advance(5);
    // passes at 5 s and 10 s (the conditions' write queued it again); the first pass's retry
    // after 30 / 2 + 1 s comes at 21 s
    pods.delete("p", io.apiserver4j.apiserver.DeleteOptions.builder().gracePeriodSeconds(0)
        .build());
    advance(10);
    assertThat(namespaces().find("slow")).isPresent();
    advance(1);
    assertThat(namespaces().find("slow")).isEmpty();
  }
}
