/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The tables of every built-in resource, with the columns kube-apiserver 1.36 prints. */
class BuiltinTablesTest {
  private static final Instant NOW = Instant.parse("2025-01-01T01:00:00Z");

  static Stream<ResourceDefinition> definitions() {
    return BuiltinResources.definitions().stream();
  }

  private static Path fixture(ResourceDefinition d) {
    String group = d.kind().group().isEmpty() ? "core" : d.kind().group();
    return Path.of(System.getProperty("apiserver4j.shared", "../shared"))
        .resolve("api/roundtrip").resolve(group + "." + d.kind().version() + "."
            + d.kind().kind() + ".json");
  }

  // kubernetes/api has the fixtures of every kind but those of apiextensions and the aggregator
  static Stream<ResourceDefinition> withFixtures() {
    return definitions().filter(d -> !d.kind().group().equals("apiextensions.k8s.io")
        && !d.kind().group().equals("apiregistration.k8s.io"));
  }

  private static ResourceDefinition find(String group, String plural) {
    return definitions().filter(d -> d.kind().group().equals(group) && d.plural().equals(plural))
        .findFirst().orElseThrow();
  }

  private static List<String> columns(String group, String plural) {
    MapValue t = Tables.of(find(group, plural), List.of(), Tables.IncludeObject.NONE, "v1")
        .ofObject(MapValue.empty(), NOW, true);
    return TablesTest.names(t);
  }

  /** Column names of kube's pkg/printers/internalversion (and the default convertor). */
  @Test
  void columnsAsKubePrintsThem() {
    assertThat(columns("rbac.authorization.k8s.io", "roles")).containsExactly("Name",
        "Created At");
    assertThat(columns("networking.k8s.io", "ingresses")).containsExactly("Name", "Class",
        "Hosts", "Address", "Ports", "Age");
    assertThat(columns("coordination.k8s.io", "leases")).containsExactly("Name", "Holder",
        "Age");
    assertThat(columns("rbac.authorization.k8s.io", "rolebindings")).containsExactly("Name",
        "Role", "Age", "Users", "Groups", "ServiceAccounts");
    assertThat(columns("", "persistentvolumeclaims")).containsExactly("Name", "Status",
        "Volume", "Capacity", "Access Modes", "StorageClass", "VolumeAttributesClass", "Age",
        "VolumeMode");
    assertThat(columns("autoscaling", "horizontalpodautoscalers")).containsExactly("Name",
        "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age");
    assertThat(columns("policy", "poddisruptionbudgets")).containsExactly("Name",
        "Min Available", "Max Unavailable", "Allowed Disruptions", "Age");
  }

  @Test
  void ingressAndLeaseCells() {
    MapValue ingress = (MapValue) Json.read("{\"metadata\":{\"name\":\"web\","
        + "\"creationTimestamp\":\"2025-01-01T00:55:00Z\"},\"spec\":{\"ingressClassName\":"
        + "\"nginx\",\"rules\":[{\"host\":\"a.example.com\"},{}],\"tls\":[{}]},\"status\":"
        + "{\"loadBalancer\":{\"ingress\":[{\"ip\":\"10.0.0.1\"}]}}}");
    MapValue t = Tables.of(find("networking.k8s.io", "ingresses"), List.of(),
        Tables.IncludeObject.NONE, "v1").ofObject(ingress, NOW, true);
    assertThat(TablesTest.cells(t)).containsExactly(Value.of("web"), Value.of("nginx"),
        Value.of("a.example.com,*"), Value.of("10.0.0.1"), Value.of("80, 443"),
        Value.of("5m"));
    MapValue lease = (MapValue) Json.read("{\"metadata\":{\"name\":\"leader\","
        + "\"creationTimestamp\":\"2025-01-01T00:00:00Z\"},\"spec\":{\"holderIdentity\":"
        + "\"pod-1\"}}");
    t = Tables.of(find("coordination.k8s.io", "leases"), List.of(), Tables.IncludeObject.NONE,
        "v1").ofObject(lease, NOW, true);
    assertThat(TablesTest.cells(t)).containsExactly(Value.of("leader"), Value.of("pod-1"),
        Value.of("60m"));
  }

  /** Every resource prints kube's fully populated round-trip object with one cell a column. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("withFixtures")
  void everyRoundTripFixturePrints(ResourceDefinition d) throws IOException {
    MapValue object = (MapValue) Json.read(Files.readString(fixture(d)));
    MapValue t = Tables.of(d, List.of(), Tables.IncludeObject.NONE, "v1")
        .ofObject(object, NOW, true);
    int columns = ((ListValue) t.getOrNull("columnDefinitions")).size();
    assertThat(TablesTest.cells(t)).hasSize(columns);
    assertThat(TablesTest.cells(t).get(d.kind().kind().equals("Event") ? 9 : 0))
        .isEqualTo(Nested.getOrNull(object, "metadata", "name"));
  }
}
