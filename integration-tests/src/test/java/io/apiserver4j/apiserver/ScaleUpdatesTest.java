/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/**
 * Updates of the {@code scale} subresource as kube's {@code scaleUpdatedObjectInfo}: a Scale
 * without resourceVersion is an unconditional update (built-in and custom resources alike), one
 * with a resourceVersion is a precondition; replicas are validated as kube's
 * {@code ValidateScale}; built-in scales are autoscaling/v1 Scales with a string selector.
 */
class ScaleUpdatesTest {
  private static final GroupVersionResource WIDGETS = CrdTest.WIDGETS;
  private final Fixtures f = new Fixtures();

  private ApiResponse putScale(GroupVersionResource gvr, String name, String scale) {
    return f.server.handle(req(Verb.UPDATE, gvr, "default", name).subresource("scale")
        .body(Json.read(scale)).build());
  }

  private static String scale(String name, String rv, long replicas) {
    return "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\""
        + name + "\"" + (rv.isEmpty() ? "" : ",\"resourceVersion\":\"" + rv + "\"")
        + "},\"spec\":{\"replicas\":" + replicas + "}}";
  }

  private void widget() {
    f.create(Fixtures.CRDS, "", yaml(CrdTest.WIDGET_CRD), "kubectl").orThrow();
    f.create(WIDGETS, "default", json("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
        + "\"metadata\":{\"name\":\"w1\"},\"spec\":{\"replicas\":1}}"), "kubectl").orThrow();
  }

  @Test
  void aCustomResourceScaleWithoutResourceVersionIsAnUnconditionalUpdate() {
    widget();

    ApiResponse r = putScale(WIDGETS, "w1", scale("w1", "", 3));

    assertThat(r.code()).isEqualTo(200);
    assertThat(at(r.body(), "spec", "replicas")).isEqualTo(Value.of(3L));
    assertThat(at(f.get(WIDGETS, "default", "w1").orThrow(), "spec", "replicas"))
        .isEqualTo(Value.of(3L));
  }

  @Test
  void aScaleResourceVersionIsAPrecondition() {
    widget();
    String rv = str(f.get(WIDGETS, "default", "w1").orThrow(), "metadata", "resourceVersion");
    putScale(WIDGETS, "w1", scale("w1", "", 2)).orThrow();

    ApiResponse stale = putScale(WIDGETS, "w1", scale("w1", rv, 5));

    assertThat(stale.code()).isEqualTo(409);
    assertThat(str(stale.body(), "message")).isEqualTo("Operation cannot be fulfilled on"
        + " widgets.example.com \"w1\": the object has been modified; please apply your changes"
        + " to the latest version and try again");
    assertThat(at(f.get(WIDGETS, "default", "w1").orThrow(), "spec", "replicas"))
        .isEqualTo(Value.of(2L));
  }

  @Test
  void negativeReplicasAreInvalid() {
    widget();

    ApiResponse r = putScale(WIDGETS, "w1", scale("w1", "", -1));

    assertThat(r.code()).isEqualTo(422);
    assertThat(str(r.body(), "message")).isEqualTo("Scale.autoscaling \"w1\" is invalid:"
        + " spec.replicas: Invalid value: -1: must be greater than or equal to 0");
  }

  @Test
  void builtInWorkloadsServeAutoscalingV1ScalesWithAStringSelector() {
    f.apply(Fixtures.DEPLOYMENTS, "default", "d", "kubectl", Fixtures.DEPLOYMENT_YAML).orThrow();
    GroupVersionResource replicaSets = new GroupVersionResource("apps", "v1", "replicasets");
    GroupVersionResource statefulSets = new GroupVersionResource("apps", "v1", "statefulsets");
    String template = "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"d\"},"
        + "\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]}]},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\",\"tier\":\"a\"}},\"spec\":{"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
    f.create(replicaSets, "default", json("{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
        + "\"metadata\":{\"name\":\"rs\"}," + template + "}}"), "kubectl").orThrow();
    f.create(statefulSets, "default", json("{\"apiVersion\":\"apps/v1\",\"kind\":"
        + "\"StatefulSet\",\"metadata\":{\"name\":\"ss\"}," + template
        + ",\"serviceName\":\"ss\"}}"), "kubectl").orThrow();

    MapValue deployment = f.server.handle(req(Verb.GET, Fixtures.DEPLOYMENTS, "default", "d")
        .subresource("scale").build()).orThrow();
    MapValue rs = f.server.handle(req(Verb.GET, replicaSets, "default", "rs")
        .subresource("scale").build()).orThrow();
    ApiResponse unconditional = putScale(statefulSets, "ss", scale("ss", "", 4));

    assertThat(str(deployment, "apiVersion")).isEqualTo("autoscaling/v1");
    assertThat(str(deployment, "kind")).isEqualTo("Scale");
    assertThat(at(deployment, "status", "selector")).isEqualTo(Value.of("app=d"));
    // metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key
    assertThat(at(rs, "status", "selector")).isEqualTo(Value.of("app=d,tier in (a,b)"));
    assertThat(unconditional.code()).isEqualTo(200);
    assertThat(at(unconditional.body(), "spec", "replicas")).isEqualTo(Value.of(4L));
  }
}
