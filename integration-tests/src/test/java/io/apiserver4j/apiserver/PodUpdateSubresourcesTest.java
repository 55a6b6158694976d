/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code pods/ephemeralcontainers} and {@code pods/resize} as kube's subresource strategies
 * (pkg/registry/core/pod/strategy.go): only their own fields change, and the changes are
 * validated with kube's messages (ValidatePodEphemeralContainersUpdate, ValidatePodResize).
 */
class PodUpdateSubresourcesTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private final ApiServer server = ApiServer.builder().build();

  @AfterEach
  void close() {
    server.close();
  }

  private MapValue create(String resources) {
    return server.handle(ApiRequest.builder(Verb.CREATE, PODS).namespace("default")
        .body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
            + "\"labels\":{\"a\":\"1\"}},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":"
            + "\"nginx\"" + resources + "}]}}")).build()).orThrow();
  }

  private MapValue createWithPodResources(String podResources) {
    return server.handle(ApiRequest.builder(Verb.CREATE, PODS).namespace("default")
        .body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
            + "\"spec\":{\"resources\":" + podResources + ",\"containers\":[{\"name\":\"app\","
            + "\"image\":\"nginx\"" + BURSTABLE + "}]}}")).build()).orThrow();
  }

  private ApiResponse patch(String sub, PatchType type, String patch) {
    return server.handle(ApiRequest.builder(Verb.PATCH, PODS).namespace("default").name("p")
        .subresource(sub).patch(type, patch).build());
  }

  private ApiResponse put(String sub, MapValue pod) {
    return server.handle(ApiRequest.builder(Verb.UPDATE, PODS).namespace("default").name("p")
        .subresource(sub).body(pod).build());
  }

  private static final String DEBUGGER = "{\"name\":\"debugger\",\"image\":\"busybox\","
      + "\"targetContainerName\":\"app\"}";

  @Test
  void ephemeralContainersAreAddedAndNothingElseChanges() {
    create("");

    ApiResponse r = patch("ephemeralcontainers", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"a\":\"2\"}},\"spec\":{\"ephemeralContainers\":["
            + DEBUGGER + "],\"containers\":[{\"name\":\"app\",\"image\":\"httpd\"}]}}");

    assertThat(r.code()).isEqualTo(200);
    MapValue pod = r.body();
    assertThat(Nested.str(pod, "spec", "ephemeralContainers")).isEmpty();
    assertThat(Nested.list(pod, "spec", "ephemeralContainers")).hasSize(1);
    assertThat(Nested.str(Nested.list(pod, "spec", "containers").get(0), "image"))
        .isEqualTo("nginx");
    assertThat(Nested.str(pod, "metadata", "labels", "a")).isEqualTo("1");
    assertThat(Nested.getOrNull(pod, "metadata", "generation")).isEqualTo(Value.of(2L));
    assertThat(server.handle(ApiRequest.builder(Verb.GET, PODS).namespace("default").name("p")
        .subresource("ephemeralcontainers").build()).orThrow()).isEqualTo(pod);
  }

  @Test
  void existingEphemeralContainersCanBeNeitherRemovedNorChanged() {
    create("");
    MapValue withDebugger = patch("ephemeralcontainers", PatchType.MERGE_PATCH,
        "{\"spec\":{\"ephemeralContainers\":[" + DEBUGGER + "]}}").orThrow();

    ApiResponse removed = put("ephemeralcontainers", Nested.set(withDebugger,
        io.apiserver4j.core.ListValue.of(java.util.List.of()), "spec", "ephemeralContainers"));
    ApiResponse changed = patch("ephemeralcontainers", PatchType.MERGE_PATCH,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"debugger\",\"image\":\"alpine\"}]}}");

    assertThat(removed.code()).isEqualTo(422);
    assertThat(Nested.str(removed.body(), "message")).isEqualTo("Pod \"p\" is invalid:"
        + " spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may"
        + " not be removed\n");
    assertThat(changed.code()).isEqualTo(422);
    assertThat(Nested.str(changed.body(), "message")).startsWith("Pod \"p\" is invalid:"
        + " spec.ephemeralContainers[debugger]: Forbidden: existing ephemeral containers"
        + " \"debugger\" may not be changed\n");
  }

  @Test
  void ephemeralContainersAreValidated() {
    create("");

    ApiResponse r = patch("ephemeralcontainers", PatchType.MERGE_PATCH,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"app\",\"ports\":[{\"containerPort\":"
            + "80}],\"targetContainerName\":\"nope\"}]}}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Pod \"p\" is invalid: ["
        + "spec.ephemeralContainers[0].name: Duplicate value: \"app\", "
        + "spec.ephemeralContainers[0].image: Required value, "
        + "spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral"
        + " Container, spec.ephemeralContainers[0].targetContainerName: Not found: \"nope\"]");
  }

  @Test
  void ephemeralContainerNamesAreDns1123Labels() {
    create("");

    ApiResponse r = patch("ephemeralcontainers", PatchType.MERGE_PATCH,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"Debug\",\"image\":\"busybox\"}]}}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Pod \"p\" is invalid:"
        + " spec.ephemeralContainers[0].name: Invalid value: \"Debug\": a lowercase RFC 1123"
        + " label must consist of lower case alphanumeric characters or '-', and must start and"
        + " end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for"
        + " validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }

  private static final String BURSTABLE = ",\"resources\":{\"requests\":{\"cpu\":\"100m\","
      + "\"memory\":\"64Mi\"},\"limits\":{\"cpu\":\"200m\",\"memory\":\"128Mi\"}}";

  @Test
  void aResizeChangesOnlyContainerResources() {
    create(BURSTABLE);

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{\"containers\":"
        + "[{\"name\":\"app\",\"image\":\"httpd\",\"resources\":{\"limits\":{\"cpu\":\"300m\"}}}]},"
        + "\"metadata\":{\"labels\":{\"a\":\"2\"}}}");

    assertThat(r.code()).isEqualTo(200);
    MapValue app = (MapValue) Nested.list(r.body(), "spec", "containers").get(0);
    assertThat(Nested.str(app, "resources", "limits", "cpu")).isEqualTo("300m");
    assertThat(Nested.str(app, "image")).isEqualTo("nginx");
    assertThat(Nested.str(r.body(), "metadata", "labels", "a")).isEqualTo("1");
    assertThat(Nested.getOrNull(r.body(), "metadata", "generation")).isEqualTo(Value.of(2L));
  }

  @Test
  void aResizeMayNotChangeTheQosClass() {
    create(BURSTABLE);

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{\"containers\":"
        + "[{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"200m\",\"memory\":"
        + "\"128Mi\"}}}]}}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Pod \"p\" is invalid: spec: Invalid"
        + " value: \"Burstable\": Pod QOS Class may not change as a result of resizing");
  }

  @Test
  void aResizeChangesOnlyCpuAndMemoryAndRemovesNothing() {
    create(BURSTABLE);

    ApiResponse storage = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{"
        + "\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"ephemeral-storage\":"
        + "\"1Gi\"}}}]}}");
    ApiResponse removed = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{"
        + "\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"memory\":null}}}]}}");
    ApiResponse renamed = patch("resize", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/containers/0/name\",\"value\":\"other\"}]");

    assertThat(storage.code()).isEqualTo(422);
    assertThat(Nested.str(storage.body(), "message")).isEqualTo("Pod \"p\" is invalid: spec:"
        + " Forbidden: only cpu and memory resources are mutable");
    assertThat(removed.code()).isEqualTo(422);
    assertThat(Nested.str(removed.body(), "message")).contains("resource limits cannot be"
        + " removed");
    assertThat(renamed.code()).isEqualTo(422);
    assertThat(Nested.str(renamed.body(), "message")).contains("spec.containers[0].name:"
        + " Forbidden: containers may not be renamed or reordered on resize");
  }

  @Test
  void podsWithPodLevelResourcesAreNotResized() {
    createWithPodResources("{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}");

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{\"containers\":"
        + "[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"300m\"}}}]}}");

    // ValidatePodResize: field.Forbidden(field.NewPath(""), ...)
    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message"))
        .endsWith("Forbidden: pods with pod-level resources cannot be resized");
  }

  @Test
  void memoryLimitsOnlyShrinkWithARestartPolicy() {
    create(BURSTABLE);

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{"
        + "\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"memory\":"
        + "\"100Mi\"}}}]}}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Pod \"p\" is invalid:"
        + " spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be"
        + " decreased unless resizePolicy is RestartContainer");
  }

  @Test
  void memoryLimitsShrinkWhenTheContainerRestarts() {
    create(",\"resizePolicy\":[{\"resourceName\":\"memory\",\"restartPolicy\":"
        + "\"RestartContainer\"}]" + BURSTABLE);

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{"
        + "\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"memory\":"
        + "\"100Mi\"}}}]}}");

    assertThat(r.code()).as(Nested.str(r.body(), "message")).isEqualTo(200);
    MapValue app = (MapValue) Nested.list(r.body(), "spec", "containers").get(0);
    assertThat(Nested.str(app, "resources", "limits", "memory")).isEqualTo("100Mi");
  }

  @Test
  void aRunningContainerWithoutReportedResourcesIsOnANodeThatDoesNotResize() {
    create(BURSTABLE);
    MapValue pod = server.handle(ApiRequest.builder(Verb.GET, PODS).namespace("default")
        .name("p").build()).orThrow();
    server.handle(ApiRequest.builder(Verb.UPDATE, PODS).namespace("default").name("p")
        .subresource("status").body(pod.with("status", Json.read("{\"phase\":\"Running\","
            + "\"qosClass\":\"Burstable\",\"containerStatuses\":[{\"name\":\"app\",\"ready\":true,"
            + "\"restartCount\":0,\"image\":\"nginx\",\"imageID\":\"\",\"state\":{\"running\":{}}}]}")))
        .build()).orThrow();

    ApiResponse r = patch("resize", PatchType.STRATEGIC_MERGE_PATCH, "{\"spec\":{\"containers\":"
        + "[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"300m\"}}}]}}");

    assertThat(r.code()).isEqualTo(422);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Pod \"p\" is invalid: spec:"
        + " Forbidden: Pod running on node without support for resize");
  }
}
