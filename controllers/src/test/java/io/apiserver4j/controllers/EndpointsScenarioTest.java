/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The endpoint controller through the public API: Services and Pods written through the server
 * (Pod IPs and readiness through {@code pods/status}, as a kubelet would), then the Endpoints
 * once the controllers are idle. Expected objects follow kube's endpoints_controller.go and its
 * tests (TestSyncEndpointsItemsPreserveNoSelector, TestSyncEndpointsProtocolTCP,
 * TestSyncEndpointsHeadlessService, TestPodToEndpointAddressForService, ...).
 */
class EndpointsScenarioTest {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("endpoint");
  }

  private ResourceClient endpoints() {
    return api.resources("v1", "endpoints").namespace("ns");
  }

  static String service(String name, String extraSpec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name
        + "\",\"labels\":{\"team\":\"a\"}},\"spec\":{\"selector\":{\"app\":\"web\"},"
        + "\"ports\":[{\"name\":\"http\",\"port\":80,\"targetPort\":\"web\"},"
        + "{\"name\":\"metrics\",\"port\":9090,\"targetPort\":9090}]" + extraSpec + "}}";
  }

  /** A Pod labelled app=web serving port 8080 named web, then its status as a kubelet. */
  static MapValue pod(ApiServer api, String name, String ip, boolean ready, Instant since) {
    MapValue created = api.resources(PODS).namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
            + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"nodeName\":\"node-1\","
            + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"ports\":[{\"name\":\"web\","
            + "\"containerPort\":8080}]}]}}"));
    return setStatus(api, created, ip, ready, since);
  }

  static MapValue setStatus(ApiServer api, MapValue pod, String ip, boolean ready,
      Instant since) {
    MapValue status = (MapValue) Json.read("{\"phase\":\"Running\",\"podIP\":\"" + ip
        + "\",\"podIPs\":[{\"ip\":\"" + ip + "\"}],\"conditions\":[{\"type\":\"Ready\","
        + "\"status\":\"" + (ready ? "True" : "False") + "\",\"lastTransitionTime\":\""
        + Meta.formatTime(since) + "\"}]}");
    return api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns")
        .name(Meta.metaString(pod, "name")).subresource("status")
        .options(UpdateOptions.defaults()).body(pod.with("status", status)).build()).orThrow();
  }

  static String address(String ip, MapValue pod) {
    return "{\"ip\":\"" + ip + "\",\"nodeName\":\"node-1\",\"targetRef\":{\"kind\":\"Pod\","
        + "\"namespace\":\"ns\",\"name\":\"" + Meta.metaString(pod, "name") + "\",\"uid\":\""
        + Meta.metaString(pod, "uid") + "\"}}";
  }

  @Test
  void serviceWithThreeReadyPodsGetsOneSubsetWithTheirAddresses() {
    MapValue a = pod(api, "a", "10.0.0.3", true, clock.instant());
    MapValue b = pod(api, "b", "10.0.0.1", true, clock.instant());
    MapValue c = pod(api, "c", "10.0.0.2", true, clock.instant());
    clock.set(clock.instant().plusSeconds(5));
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    MapValue ep = endpoints().get("web");
    // kube: the Service's labels; the trigger time of a new Service is its creation
    assertThat(Meta.labels(ep)).containsExactlyEntriesOf(java.util.Map.of("team", "a"));
    assertThat(Meta.annotations(ep)).containsExactlyEntriesOf(java.util.Map.of(
        "endpoints.kubernetes.io/last-change-trigger-time", "2026-01-01T00:00:05Z"));
    List<Value> subsets = Nested.list(ep, "subsets");
    assertThat(subsets).hasSize(1);
    // addresses sorted by IP (kube's LessEndpointAddress)
    assertThat(Nested.list(subsets.get(0), "addresses")).containsExactly(
        Json.read(address("10.0.0.1", b)), Json.read(address("10.0.0.2", c)),
        Json.read(address("10.0.0.3", a)));
    assertThat(Nested.list(subsets.get(0), "ports")).containsExactlyInAnyOrder(
        Json.read("{\"name\":\"http\",\"port\":8080,\"protocol\":\"TCP\"}"),
        Json.read("{\"name\":\"metrics\",\"port\":9090,\"protocol\":\"TCP\"}"));
    assertThat(Nested.has(subsets.get(0), "notReadyAddresses")).isFalse();
  }

  @Test
  void aPodChangeThatChangesNoAddressLeavesTheEndpointsAlone() {
    pod(api, "a", "10.0.0.1", true, clock.instant());
    pod(api, "b", "10.0.0.2", false, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    MapValue before = endpoints().get("web");
    clock.set(clock.instant().plusSeconds(30));
    // kube's syncService compares subsets, labels and the capacity annotation and skips the write
    api.resources(PODS).namespace("ns").patch("a", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"annotations\":{\"touched\":\"yes\"}}}");
    scenario.idle();
    MapValue after = endpoints().get("web");
    assertThat(Meta.metaString(after, "resourceVersion"))
        .isEqualTo(Meta.metaString(before, "resourceVersion"));
    assertThat(Meta.annotations(after)).containsEntry(
        "endpoints.kubernetes.io/last-change-trigger-time", "2026-01-01T00:00:00Z");
  }

  @Test
  void podGoingUnreadyMovesToNotReadyAddresses() {
    MapValue a = pod(api, "a", "10.0.0.1", true, clock.instant());
    pod(api, "b", "10.0.0.2", true, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    clock.set(clock.instant().plusSeconds(30));
    setStatus(api, api.resources(PODS).namespace("ns").get("a"), "10.0.0.1", false, clock.instant());
    scenario.idle();
    MapValue ep = endpoints().get("web");
    List<Value> subsets = Nested.list(ep, "subsets");
    assertThat(subsets).hasSize(1);
    assertThat(Nested.list(subsets.get(0), "notReadyAddresses"))
        .containsExactly(Json.read(address("10.0.0.1", a)));
    assertThat(Nested.list(subsets.get(0), "addresses")).hasSize(1);
    // the Pod's Ready transition triggered the change
    assertThat(Meta.annotations(ep)).containsEntry(
        "endpoints.kubernetes.io/last-change-trigger-time", "2026-01-01T00:00:30Z");
  }

  @Test
  void publishNotReadyAddressesListsUnreadyPodsAsReady() {
    pod(api, "a", "10.0.0.1", false, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web",
        ",\"publishNotReadyAddresses\":true")));
    scenario.idle();
    List<Value> subsets = Nested.list(endpoints().get("web"), "subsets");
    assertThat(Nested.list(subsets.get(0), "addresses")).hasSize(1);
    assertThat(Nested.has(subsets.get(0), "notReadyAddresses")).isFalse();
  }

  @Test
  void headlessServiceWithoutPortsIsLabelledHeadlessAndListsHostnames() {
    MapValue created = api.resources(PODS).namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"labels\":"
            + "{\"app\":\"web\"}},\"spec\":{\"nodeName\":\"node-1\",\"hostname\":\"h\","
            + "\"subdomain\":\"db\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
    setStatus(api, created, "10.0.0.1", true, clock.instant());
    api.resources("v1", "services").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"db\"},"
            + "\"spec\":{\"clusterIP\":\"None\",\"selector\":{\"app\":\"web\"}}}"));
    scenario.idle();
    MapValue ep = endpoints().get("db");
    assertThat(Meta.labels(ep)).containsExactlyEntriesOf(
        java.util.Map.of("service.kubernetes.io/headless", ""));
    List<Value> subsets = Nested.list(ep, "subsets");
    assertThat(subsets).hasSize(1);
    assertThat(Nested.str(Nested.list(subsets.get(0), "addresses").get(0), "hostname"))
        .isEqualTo("h");
    assertThat(Nested.has(subsets.get(0), "ports")).isFalse();
  }

  @Test
  void podsWithoutIpOrTerminalAreLeftOutAndDeletedServiceDeletesEndpoints() {
    api.resources(PODS).namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"noip\",\"labels\":"
            + "{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
    api.resources("v1", "services").namespace("ns").create(Json.read(service("web", "")));
    scenario.idle();
    MapValue ep = endpoints().get("web");
    assertThat(Nested.has(ep, "subsets")).isFalse();
    api.resources("v1", "services").namespace("ns").delete("web");
    scenario.idle();
    assertThat(endpoints().find("web")).isEmpty();
  }

  @Test
  void selectorlessServiceKeepsItsHandWrittenEndpoints() {
    endpoints().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\",\"metadata\":"
        + "{\"name\":\"ext\"},\"subsets\":[{\"addresses\":[{\"ip\":\"6.7.8.9\"}],"
        + "\"ports\":[{\"port\":1000}]}]}"));
    api.resources("v1", "services").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"ext\"},"
            + "\"spec\":{\"ports\":[{\"port\":1000}]}}"));
    scenario.idle();
    assertThat(Nested.str(Nested.list(Nested.list(endpoints().get("ext"), "subsets").get(0),
        "addresses").get(0), "ip")).isEqualTo("6.7.8.9");
  }
}
