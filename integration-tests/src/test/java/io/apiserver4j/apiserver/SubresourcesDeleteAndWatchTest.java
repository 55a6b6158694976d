/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.DEPLOYMENTS;
import static io.apiserver4j.apiserver.Fixtures.PODS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The status and scale subresources, deletion (finalizers, grace, propagation) and watches. */
class SubresourcesDeleteAndWatchTest {
  private final Fixtures f = new Fixtures();

  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        nodeName: node-1
        containers:
        - {name: c, image: nginx}
      """;

  // --- status ----------------------------------------------------------------------------------

  @Test
  void theStatusEndpointChangesOnlyStatusAndTheMainResourceNeverStatus() {
    MapValue d = f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML)
        .orThrow();
    MapValue withStatus = d.with("status", json("{\"replicas\":1,\"readyReplicas\":1}"))
        .with("spec", ((MapValue) d.getOrNull("spec")).with("replicas", Value.of(9L)));

    MapValue viaStatus = f.server.handle(req(Verb.UPDATE, DEPLOYMENTS, "default", "d")
        .subresource("status").body(withStatus).fieldManager("ctrl").build()).orThrow();
    MapValue viaMain = f.update(DEPLOYMENTS, "default", "d", viaStatus
        .with("status", json("{\"replicas\":0}")), "editor").orThrow();

    assertThat(at(viaStatus, "status")).isEqualTo(json("{\"replicas\":1,\"readyReplicas\":1}"));
    assertThat(at(viaStatus, "spec", "replicas")).isEqualTo(Value.of(1L));
    assertThat(at(viaMain, "status")).isEqualTo(json("{\"replicas\":1,\"readyReplicas\":1}"));
  }

  // --- scale -----------------------------------------------------------------------------------

  @Test
  void scaleIsAnAutoscalingScaleOfTheDeployment() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();

    MapValue scale = f.server.handle(req(Verb.GET, DEPLOYMENTS, "default", "d")
        .subresource("scale").build()).orThrow();

    assertThat(scale).isEqualTo(json("{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\","
        + "\"metadata\":{\"name\":\"d\",\"namespace\":\"default\",\"uid\":\"uid-1\","
        + "\"resourceVersion\":\"2\",\"creationTimestamp\":\"2024-01-02T03:04:05Z\"},"
        + "\"spec\":{\"replicas\":1},\"status\":{\"replicas\":0,\"selector\":\"app=d\"}}"));
  }

  @Test
  void puttingAScaleChangesTheReplicasAndBumpsGeneration() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    MapValue scale = f.server.handle(req(Verb.GET, DEPLOYMENTS, "default", "d")
        .subresource("scale").build()).orThrow();

    MapValue out = f.server.handle(req(Verb.UPDATE, DEPLOYMENTS, "default", "d")
        .subresource("scale").body(scale.with("spec", json("{\"replicas\":4}")))
        .fieldManager("scaler").build()).orThrow();

    assertThat(at(out, "spec", "replicas")).isEqualTo(Value.of(4L));
    MapValue d = f.get(DEPLOYMENTS, "default", "d").orThrow();
    assertThat(at(d, "spec", "replicas")).isEqualTo(Value.of(4L));
    assertThat(at(d, "metadata", "generation")).isEqualTo(Value.of(2L));
    MapValue e = (MapValue) Fixtures.managedFields(d).get(1);
    assertThat(str(e, "manager")).isEqualTo("scaler");
    assertThat(str(e, "apiVersion")).isEqualTo("apps/v1");
    assertThat(str(e, "subresource")).isEqualTo("scale");
    assertThat(at(e, "fieldsV1")).isEqualTo(json("{\"f:spec\":{\"f:replicas\":{}}}"));
    // the applier lost replicas to the scaler
    assertThat(str(Fixtures.managedFields(d).get(0), "fieldsV1")).doesNotContain("f:replicas");
  }

  @Test
  void scaleErrors() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();

    ApiResponse negative = f.server.handle(req(Verb.PATCH, DEPLOYMENTS, "default", "d")
        .subresource("scale").patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":-1}}")
        .build());
    ApiResponse missing = f.server.handle(req(Verb.GET, DEPLOYMENTS, "default", "nope")
        .subresource("scale").build());
    ApiResponse onConfigMap = f.server.handle(req(Verb.GET, CONFIGMAPS, "default", "cm")
        .subresource("scale").build());

    assertThat(negative.code()).isEqualTo(422);
    assertThat(str(negative.body(), "message")).isEqualTo("Scale.autoscaling \"d\" is invalid:"
        + " spec.replicas: Invalid value: -1: must be greater than or equal to 0");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(str(missing.body(), "message")).isEqualTo("deployments.apps \"nope\" not found");
    assertThat(onConfigMap.code()).isEqualTo(404);
  }

  // --- delete ----------------------------------------------------------------------------------

  private static final String CM_WITH_FINALIZER = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm, finalizers: [example.com/cleanup]}
      data: {a: "1"}
      """;

  @Test
  void finalizersTurnADeleteIntoADeletionTimestamp() {
    f.create(CONFIGMAPS, "default", yaml(CM_WITH_FINALIZER), "m").orThrow();
    f.clock.advance(Duration.ofSeconds(10));

    ApiResponse r = f.delete(CONFIGMAPS, "default", "cm");

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "kind")).isEqualTo("ConfigMap");
    assertThat(str(r.body(), "metadata", "deletionTimestamp")).isEqualTo("2024-01-02T03:04:15Z");
    assertThat(at(r.body(), "metadata", "deletionGracePeriodSeconds")).isEqualTo(Value.of(0L));
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(200);
  }

  @Test
  void removingTheLastFinalizerOfADeletingObjectDeletesIt() throws Exception {
    f.create(CONFIGMAPS, "default", yaml(CM_WITH_FINALIZER), "m").orThrow();
    f.delete(CONFIGMAPS, "default", "cm").orThrow();
    MapValue deleting = f.get(CONFIGMAPS, "default", "cm").orThrow();
    ApiWatch watch = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS)
        .namespace("default").resourceVersion(str(deleting, "metadata", "resourceVersion"))
        .build());

    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.JSON_PATCH,
        "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]", "controller");

    assertThat(r.code()).isEqualTo(200);
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
    Optional<ApiWatchEvent> e = watch.poll(Duration.ofSeconds(5));
    assertThat(e).isPresent();
    assertThat(e.get().type()).isEqualTo("DELETED");
    watch.close();
  }

  @Test
  void noNewFinalizersOnADeletingObject() {
    f.create(CONFIGMAPS, "default", yaml(CM_WITH_FINALIZER), "m").orThrow();
    f.delete(CONFIGMAPS, "default", "cm").orThrow();

    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"finalizers\":[\"example.com/cleanup\",\"example.com/more\"]}}", "x");

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("ConfigMap \"cm\" is invalid:"
        + " metadata.finalizers: Forbidden: no new finalizers can be added if the object is being"
        + " deleted, found new finalizers []string{\"example.com/more\"}");
  }

  @Test
  void podsOnANodeAreDeletedGracefully() {
    f.create(PODS, "default", yaml(POD), "m").orThrow();

    ApiResponse first = f.delete(PODS, "default", "p");
    ApiResponse again = f.delete(PODS, "default", "p");
    ApiResponse now = f.server.handle(req(Verb.DELETE, PODS, "default", "p")
        .gracePeriodSeconds(0).build());

    assertThat(first.code()).isEqualTo(200);
    assertThat(str(first.body(), "metadata", "deletionTimestamp"))
        .isEqualTo("2024-01-02T03:04:35Z");
    assertThat(at(first.body(), "metadata", "deletionGracePeriodSeconds"))
        .isEqualTo(Value.of(30L));
    assertThat(at(first.body(), "metadata", "generation")).isEqualTo(Value.of(2L));
    assertThat(again.code()).isEqualTo(200);
    assertThat(str(again.body(), "metadata", "deletionTimestamp"))
        .isEqualTo("2024-01-02T03:04:35Z");
    assertThat(now.code()).isEqualTo(200);
    assertThat(str(now.body(), "kind")).isEqualTo("Pod");
    assertThat(f.get(PODS, "default", "p").code()).isEqualTo(404);
  }

  @Test
  void podsNeverScheduledAreDeletedAtOnce() {
    f.create(PODS, "default", yaml(POD.replace("  nodeName: node-1\n", "")), "m").orThrow();

    ApiResponse r = f.delete(PODS, "default", "p");

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "kind")).isEqualTo("Pod");
    assertThat(f.get(PODS, "default", "p").code()).isEqualTo(404);
  }

  @Test
  void propagationPoliciesAddTheirFinalizers() {
    f.apply(DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();

    ApiResponse orphan = f.server.handle(req(Verb.DELETE, DEPLOYMENTS, "default", "d")
        .propagationPolicy(PropagationPolicy.fromWireName("Orphan")).build());

    assertThat(orphan.code()).isEqualTo(200);
    assertThat(at(orphan.body(), "metadata", "finalizers")).isEqualTo(json("[\"orphan\"]"));
    assertThat(at(orphan.body(), "metadata", "generation")).isEqualTo(Value.of(2L));
    assertThat(f.get(DEPLOYMENTS, "default", "d").code()).isEqualTo(200);
  }

  @Test
  void deleteOptionsMayComeInTheBody() {
    f.create(CONFIGMAPS, "default", yaml(CM_WITH_FINALIZER.replace(
        "finalizers: [example.com/cleanup]", "labels: {a: b}")), "m").orThrow();

    StatusException bad = catchThrowableOfType(() -> QueryParameters.applyDeleteOptions(
        req(Verb.DELETE, CONFIGMAPS, "default", "cm"), json("{\"kind\":\"DeleteOptions\","
            + "\"apiVersion\":\"v1\",\"propagationPolicy\":\"Sideways\"}")),
        StatusException.class);
    ApiResponse ok = f.server.handle(QueryParameters.applyDeleteOptions(
        req(Verb.DELETE, CONFIGMAPS, "default", "cm"), json("{\"kind\":\"DeleteOptions\","
            + "\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"uid-1\"}}")).build());

    assertThat(bad.status().code()).isEqualTo(422);
    assertThat(bad.status().message()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid:"
        + " propagationPolicy: Unsupported value: \"Sideways\": supported values: \"Foreground\","
        + " \"Background\", \"Orphan\", \"nil\"");
    assertThat(ok.code()).isEqualTo(200);
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
  }

  @Test
  void deleteCollectionDeletesWhatTheSelectorSelects() {
    for (String n : List.of("a", "b", "c")) {
      f.create(CONFIGMAPS, "default", yaml("""
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: %s, labels: {keep: "%s"}}
          """.formatted(n, n.equals("b") ? "yes" : "no")), "m").orThrow();
    }

    ApiResponse r = f.server.handle(req(Verb.DELETE_COLLECTION, CONFIGMAPS, "default", "")
        .labelSelector(io.apiserver4j.core.labels.LabelSelector.parse("keep=no")).build());

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "kind")).isEqualTo("ConfigMapList");
    assertThat(((ListValue) at(r.body(), "items")).size()).isEqualTo(2);
    List<String> left = new ArrayList<>();
    for (Value v : ((ListValue) at(f.server.handle(req(Verb.LIST, CONFIGMAPS, "default", "")
        .build()).orThrow(), "items")).items()) {
      left.add(str(v, "metadata", "name"));
    }
    assertThat(left).containsExactly("b");
  }

  // --- watch and lists -------------------------------------------------------------------------

  @Test
  void watchesSeeEveryChangeOnceAndNoOpWritesNotAtAll() throws Exception {
    ApiWatch watch = f.server.watch(ApiRequest.builder(Verb.WATCH, CONFIGMAPS)
        .namespace("default").build());
    MapValue cm = f.create(CONFIGMAPS, "default", yaml(CM_WITH_FINALIZER.replace(
        "metadata: {name: cm, finalizers: [example.com/cleanup]}", "metadata: {name: cm}")), "m")
        .orThrow();
    f.update(CONFIGMAPS, "default", "cm", cm, "m").orThrow();
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"a\":\"2\"}}", "m")
        .orThrow();
    f.delete(CONFIGMAPS, "default", "cm").orThrow();

    List<String> types = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ApiWatchEvent e = watch.poll(Duration.ofSeconds(5)).orElseThrow();
      types.add(e.type() + " " + str(e.object(), "data", "a"));
    }
    assertThat(types).containsExactly("ADDED 1", "MODIFIED 2", "DELETED 2");
    assertThat(watch.poll(Duration.ZERO)).isEmpty();
    watch.close();
  }

  @Test
  void listsArePagedAndFilteredAndTheirItemsHaveNoTypeMeta() {
    for (String n : List.of("a", "b", "c")) {
      f.create(CONFIGMAPS, "default", yaml("""
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: %s}
          """.formatted(n)), "m").orThrow();
    }

    MapValue page1 = f.server.handle(req(Verb.LIST, CONFIGMAPS, "default", "").limit(2).build())
        .orThrow();
    MapValue page2 = f.server.handle(req(Verb.LIST, CONFIGMAPS, "default", "")
        .continueToken(str(page1, "metadata", "continue")).build()).orThrow();
    MapValue byName = f.server.handle(req(Verb.LIST, CONFIGMAPS, "", "")
        .fieldSelector(io.apiserver4j.core.fields.FieldSelector.parse("metadata.name=b")).build()).orThrow();

    assertThat(str(page1, "kind")).isEqualTo("ConfigMapList");
    assertThat(str(page1, "apiVersion")).isEqualTo("v1");
    assertThat(((ListValue) at(page1, "items")).size()).isEqualTo(2);
    assertThat(((MapValue) ((ListValue) at(page1, "items")).get(0)).containsKey("kind")).isFalse();
    assertThat(at(page1, "metadata", "remainingItemCount")).isEqualTo(Value.of(1L));
    assertThat(((ListValue) at(page2, "items")).size()).isEqualTo(1);
    assertThat(at(page2, "metadata", "continue")).isNull();
    assertThat(((ListValue) at(byName, "items")).size()).isEqualTo(1);
  }
}
