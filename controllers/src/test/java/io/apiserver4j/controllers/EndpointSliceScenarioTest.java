/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static io.apiserver4j.controllers.EndpointsScenarioTest.pod;
import static io.apiserver4j.controllers.EndpointsScenarioTest.service;
import static io.apiserver4j.controllers.EndpointsScenarioTest.setStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The endpointslice controller (with endpoint and garbagecollector beside it) through the
 * public API. Expected slices follow kube's k8s.io/endpointslice reconciler and its tests
 * (TestReconcile1Pod, TestReconcileManyPods, placeholder slices, TestPodToEndpoint).
 */
class EndpointSliceScenarioTest {
  /** kube's generateName alphabet, 5 characters after the prefix. */
  private static final String SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}";

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    api.resources("v1", "nodes").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"node-1\",\"labels\":{\"topology.kubernetes.io/zone\":"
        + "\"zone-a\"}}}"));
    controllers = scenario.start("endpoint,endpointslice,garbagecollector");
  }

  private ResourceClient slices() {
    return api.resources("discovery.k8s.io/v1", "endpointslices").namespace("ns");
  }

  private List<MapValue> slicesOf(String service) {
    return slices().list().stream().filter(s -> service.equals(
        Meta.labels(s).get("kubernetes.io/service-name"))).toList();
  }

  private static String endpoint(MapValue pod, String ip, boolean ready) {
    return "{\"addresses\":[\"" + ip + "\"],\"conditions\":{\"ready\":" + ready
        + ",\"serving\":" + ready + ",\"terminating\":false},\"targetRef\":{\"kind\":\"Pod\","
        + "\"namespace\":\"ns\",\"name\":\"" + Meta.metaString(pod, "name") + "\",\"uid\":\""
        + Meta.metaString(pod, "uid") + "\"},\"nodeName\":\"node-1\",\"zone\":\"zone-a\"}";
  }

  @Test
  void serviceWithThreeReadyPodsGetsEndpointsAndOneSliceWithTheirIps() {
    MapValue a = pod(api, "a", "10.0.0.1", true, clock.instant());
    MapValue b = pod(api, "b", "10.0.0.2", true, clock.instant());
    MapValue c = pod(api, "c", "10.0.0.3", true, clock.instant());
    MapValue svc = api.resources("v1", "services").namespace("ns")
        .create(Json.read(service("web", "")));
    scenario.idle();
    assertThat(Nested.list(api.resources("v1", "endpoints").namespace("ns").get("web"),
        "subsets").get(0)).satisfies(s -> assertThat(Nested.list(s, "addresses")).hasSize(3));
    List<MapValue> slices = slicesOf("web");
    assertThat(slices).hasSize(1);
    MapValue slice = slices.get(0);
    assertThat(Meta.metaString(slice, "name")).matches("web-" + SUFFIX);
    assertThat(Meta.metaString(slice, "generateName")).isEqualTo("web-");
    assertThat(Meta.labels(slice)).containsExactlyInAnyOrderEntriesOf(Map.of("team", "a",
        "kubernetes.io/service-name", "web",
        "endpointslice.kubernetes.io/managed-by", "endpointslice-controller.k8s.io"));
    assertThat(Meta.annotations(slice)).containsEntry(
        "endpoints.kubernetes.io/last-change-trigger-time",
        Meta.metaString(svc, "creationTimestamp"));
    assertThat(Nested.list(slice, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"name\":\"web\",\"uid\":\""
            + Meta.metaString(svc, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    assertThat(Nested.str(slice, "addressType")).isEqualTo("IPv4");
    assertThat(Nested.list(slice, "ports")).containsExactlyInAnyOrder(
        Json.read("{\"name\":\"http\",\"port\":8080,\"protocol\":\"TCP\"}"),
        Json.read("{\"name\":\"metrics\",\"port\":9090,\"protocol\":\"TCP\"}"));
    assertThat(Nested.list(slice, "endpoints")).containsExactlyInAnyOrder(
        Json.read(endpoint(a, "10.0.0.1", true)), Json.read(endpoint(b, "10.0.0.2", true)),
        Json.read(endpoint(c, "10.0.0.3", true)));

    // a Pod goes unready: ready=false there, notReadyAddresses in Endpoints
    clock.set(clock.instant().plusSeconds(10));
    setStatus(api, api.resources(EndpointsScenarioTest.PODS).namespace("ns").get("b"),
        "10.0.0.2", false, clock.instant());
    scenario.idle();
    slices = slicesOf("web");
    assertThat(slices).hasSize(1);
    assertThat(Nested.list(slices.get(0), "endpoints")).contains(
        Json.read(endpoint(b, "10.0.0.2", false)));
    assertThat(Meta.annotations(slices.get(0))).containsEntry(
        "endpoints.kubernetes.io/last-change-trigger-time", "2026-01-01T00:00:10Z");
    List<Value> subsets = Nested.list(api.resources("v1", "endpoints").namespace("ns")
        .get("web"), "subsets");
    assertThat(Nested.list(subsets.get(0), "notReadyAddresses")).hasSize(1);
    assertThat(Nested.str(Nested.list(subsets.get(0), "notReadyAddresses").get(0), "ip"))
        .isEqualTo("10.0.0.2");

    // the Service goes: the garbage collector deletes its slices
    api.resources("v1", "services").namespace("ns").delete("web");
    scenario.idle();
    assertThat(slicesOf("web")).isEmpty();
  }

  @Test
  void serviceWithoutPodsGetsOnePlaceholderSlice() {
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    List<MapValue> slices = slicesOf("web");
    assertThat(slices).hasSize(1);
    assertThat(Nested.list(slices.get(0), "endpoints")).isEmpty();
    assertThat(Nested.list(slices.get(0), "ports")).isEmpty();
    // a Pod arrives: the placeholder is reused (kube turns the create into its update)
    String name = Meta.metaString(slices.get(0), "name");
    pod(api, "a", "10.0.0.1", true, clock.instant());
    scenario.idle();
    slices = slicesOf("web");
    assertThat(slices).hasSize(1);
    assertThat(Meta.metaString(slices.get(0), "name")).isEqualTo(name);
    assertThat(Nested.list(slices.get(0), "endpoints")).hasSize(1);
  }

  @Test
  void aHundredAndFiftyPodsFillTwoSlices() {
    for (int i = 0; i < 150; i++) {
      pod(api, "p" + i, "10.0." + (i / 250) + "." + (i % 250 + 1), true, clock.instant());
    }
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    List<MapValue> slices = slicesOf("web");
    // kube's TestReconcileManyPods: maxEndpointsPerSlice 100
    assertThat(slices.stream().map(s -> Nested.list(s, "endpoints").size()))
        .containsExactlyInAnyOrder(100, 50);
  }

  @Test
  void terminatingPodIsServingButNotReady() {
    MapValue created = api.resources(EndpointsScenarioTest.PODS).namespace("ns").create(
        Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\","
            + "\"labels\":{\"app\":\"web\"},\"finalizers\":[\"example.com/hold\"]},"
            + "\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"c\",\"image\":"
            + "\"x\",\"ports\":[{\"name\":\"web\",\"containerPort\":8080}]}]}}"));
    setStatus(api, created, "10.0.0.1", true, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    api.resources(EndpointsScenarioTest.PODS).namespace("ns").delete("a");
    scenario.idle();
    MapValue ep = (MapValue) Nested.list(slicesOf("web").get(0), "endpoints").get(0);
    assertThat(Nested.map(ep, "conditions")).isEqualTo(Json.read(
        "{\"ready\":false,\"serving\":true,\"terminating\":true}"));
    // Endpoints leave terminating Pods out
    assertThat(Nested.has(api.resources("v1", "endpoints").namespace("ns").get("web"),
        "subsets")).isFalse();
  }

  @Test
  void aPodOnAMissingNodeIsAFailedToUpdateEndpointSlicesWarning() {
    MapValue created = api.resources(EndpointsScenarioTest.PODS).namespace("ns").create(
        Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"lost\","
            + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"nodeName\":\"gone\",\"containers\":"
            + "[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    setStatus(api, created, "10.0.0.9", true, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    // endpointslice_controller.go syncService, with the reconciler's error
    List<MapValue> warnings = api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals("FailedToUpdateEndpointSlices")).toList();
    assertThat(warnings).extracting(e -> Nested.str(e, "message")).containsExactly(
        "Error updating Endpoint Slices for Service ns/web: skipping Pod lost for Service "
            + "ns/web: Node gone Not Found");
    assertThat(Nested.str(warnings.get(0), "type")).isEqualTo("Warning");
    assertThat(Nested.str(warnings.get(0), "source", "component"))
        .isEqualTo("endpoint-slice-controller");
    assertThat(Nested.str(warnings.get(0), "involvedObject", "kind")).isEqualTo("Service");
  }
}
