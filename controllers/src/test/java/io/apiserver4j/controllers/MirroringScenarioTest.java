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
 * The endpointslicemirroring controller (with endpointslice beside it) through the public API.
 * Expected slices follow kube's pkg/controller/endpointslicemirroring reconciler and its tests
 * (TestReconcile: one address, skip-mirror, IPv6 addresses, labels and
 * annotations mirrored; TestShouldMirror).
 */
class MirroringScenarioTest {
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
    controllers = scenario.start("endpointslicemirroring,endpointslice");
  }

  private ResourceClient slices() {
    return api.resources("discovery.k8s.io/v1", "endpointslices").namespace("ns");
  }

  private List<MapValue> slicesOf(String service) {
    return slices().list().stream().filter(s -> service.equals(
        Meta.labels(s).get("kubernetes.io/service-name"))).toList();
  }

  private void endpoints(String labels, String annotations) {
    api.resources("v1", "endpoints").namespace("ns").create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Endpoints\",\"metadata\":{\"name\":\"ext\",\"labels\":{" + labels
        + "},\"annotations\":{" + annotations + "}},\"subsets\":[{\"addresses\":[{\"ip\":"
        + "\"10.1.2.3\",\"hostname\":\"h\"},{\"ip\":\"2001:db8::1\"}],"
        + "\"notReadyAddresses\":[{\"ip\":\"10.1.2.4\",\"nodeName\":\"node-1\"}],"
        + "\"ports\":[{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}]}]}"));
  }

  private void selectorlessService() {
    api.resources("v1", "services").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"ext\"},"
            + "\"spec\":{\"ports\":[{\"name\":\"http\",\"port\":80}]}}"));
  }

  @Test
  void endpointsOfASelectorlessServiceAreMirroredByAddressType() {
    selectorlessService();
    endpoints("\"team\":\"a\"", "\"note\":\"x\",\"endpoints.kubernetes.io/"
        + "last-change-trigger-time\":\"2026-01-01T00:00:00Z\"");
    scenario.idle();
    MapValue ep = api.resources("v1", "endpoints").namespace("ns").get("ext");
    List<MapValue> slices = slicesOf("ext");
    assertThat(slices).hasSize(2);
    MapValue v4 = slices.stream().filter(s -> Nested.str(s, "addressType").equals("IPv4"))
        .findFirst().orElseThrow();
    MapValue v6 = slices.stream().filter(s -> Nested.str(s, "addressType").equals("IPv6"))
        .findFirst().orElseThrow();
    assertThat(Meta.metaString(v4, "name")).matches("ext-" + SUFFIX);
    assertThat(Meta.labels(v4)).containsExactlyInAnyOrderEntriesOf(Map.of("team", "a",
        "kubernetes.io/service-name", "ext",
        "endpointslice.kubernetes.io/managed-by", "endpointslicemirroring-controller.k8s.io"));
    // every annotation but the trigger time is mirrored
    assertThat(Meta.annotations(v4)).containsExactlyEntriesOf(Map.of("note", "x"));
    assertThat(Nested.list(v4, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\",\"name\":\"ext\",\"uid\":\""
            + Meta.metaString(ep, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    assertThat(Nested.list(v4, "ports")).containsExactly(
        Json.read("{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}"));
    assertThat(Nested.list(v4, "endpoints")).containsExactlyInAnyOrder(
        Json.read("{\"addresses\":[\"10.1.2.3\"],\"conditions\":{\"ready\":true},"
            + "\"hostname\":\"h\"}"),
        Json.read("{\"addresses\":[\"10.1.2.4\"],\"conditions\":{\"ready\":false},"
            + "\"nodeName\":\"node-1\"}"));
    assertThat(Nested.list(v6, "endpoints")).containsExactly(
        Json.read("{\"addresses\":[\"2001:db8::1\"],\"conditions\":{\"ready\":true}}"));
    // the endpointslice controller leaves a selectorless Service alone
    assertThat(slices).allSatisfy(s -> assertThat(Meta.labels(s).get(
        "endpointslice.kubernetes.io/managed-by"))
        .isEqualTo("endpointslicemirroring-controller.k8s.io"));

    // the Service gains a selector: mirrored slices go
    api.resources("v1", "services").namespace("ns").patch("ext",
        io.apiserver4j.apimachinery.patch.PatchType.MERGE_PATCH,
        "{\"spec\":{\"selector\":{\"app\":\"x\"}}}");
    scenario.idle();
    assertThat(slicesOf("ext")).allSatisfy(s -> assertThat(Meta.labels(s).get(
        "endpointslice.kubernetes.io/managed-by"))
        .isEqualTo("endpointslice-controller.k8s.io"));
  }

  @Test
  void skipMirrorLabelAndMissingServiceMirrorNothing() {
    endpoints("\"endpointslice.kubernetes.io/skip-mirror\":\"true\"", "");
    selectorlessService();
    scenario.idle();
    assertThat(slicesOf("ext")).isEmpty();
    api.resources("v1", "endpoints").namespace("ns").delete("ext");
    endpoints("", "");
    scenario.idle();
    assertThat(slicesOf("ext")).hasSize(2);
    api.resources("v1", "services").namespace("ns").delete("ext");
    scenario.idle();
    assertThat(slicesOf("ext")).isEmpty();
  }

  @Test
  void addressesBeyondTheSubsetMaximumAreATooManyAddressesToMirrorWarning() {
    selectorlessService();
    StringBuilder addresses = new StringBuilder();
    for (int i = 0; i < 1001; i++) {
      addresses.append(i == 0 ? "" : ",").append("{\"ip\":\"10.1.").append(i / 250).append('.')
          .append(i % 250 + 1).append("\"}");
    }
    api.resources("v1", "endpoints").namespace("ns").create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Endpoints\",\"metadata\":{\"name\":\"ext\"},\"subsets\":[{\"addresses\":["
        + addresses + "],\"ports\":[{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}]}]}"));
    scenario.idle();
    // the mirroring reconciler, from the endpoint-slice-mirroring-controller
    List<MapValue> warnings = api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals("TooManyAddressesToMirror")).toList();
    assertThat(warnings).extracting(e -> Nested.str(e, "message")).containsExactly(
        "A max of 1000 addresses can be mirrored to EndpointSlices per Endpoints subset. "
            + "1 addresses were skipped");
    assertThat(Nested.str(warnings.get(0), "source", "component"))
        .isEqualTo("endpoint-slice-mirroring-controller");
    assertThat(Nested.str(warnings.get(0), "involvedObject", "kind")).isEqualTo("Endpoints");
  }
}
