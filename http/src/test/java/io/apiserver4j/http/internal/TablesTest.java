/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablesTest {
  static final Instant NOW = Instant.parse("2025-01-01T01:00:00Z");

  // built-in resources print with the printer their definition declares
  static ResourceDefinition def(String group, String version, String kind, String plural,
      boolean custom) {
    if (!custom) {
      return io.apiserver4j.apiserver.BuiltinResources.definitions().stream()
          .filter(d -> d.kind().equals(new GroupVersionKind(group, version, kind)))
          .findFirst().orElseThrow();
    }
    return ResourceDefinition.builder(new GroupVersionKind(group, version, kind), plural)
        .customResource(custom).build();
  }

  static MapValue yaml(String s) {
    return (MapValue) Yaml.read(s);
  }

  static List<String> names(MapValue table) {
    List<String> out = new ArrayList<>();
    for (Value c : ((ListValue) table.getOrNull("columnDefinitions")).items()) {
      out.add(Nested.str(c, "name"));
    }
    return out;
  }

  static List<Value> cells(MapValue table) {
    return ((ListValue) Nested.getOrNull(((ListValue) table.getOrNull("rows")).get(0), "cells"))
        .items();
  }

  @Test
  void deploymentColumnsAndCells() {
    MapValue d = yaml(String.join("\n",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata: {name: web, namespace: default, resourceVersion: '12',"
            + " creationTimestamp: '2025-01-01T00:55:00Z'}",
        "spec:",
        "  replicas: 3",
        "  selector: {matchLabels: {app: web}}",
        "  template: {spec: {containers: [{name: nginx, image: 'nginx:1'}]}}",
        "status: {readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2}"));
    MapValue t = Tables.of(def("apps", "v1", "Deployment", "deployments", false), List.of(),
        Tables.IncludeObject.METADATA, "v1").ofObject(d, NOW, true);
    assertThat(t.getOrNull("kind")).isEqualTo(Value.of("Table"));
    assertThat(t.getOrNull("apiVersion")).isEqualTo(Value.of("meta.k8s.io/v1"));
    assertThat(Nested.str(t, "metadata", "resourceVersion")).isEqualTo("12");
    assertThat(names(t)).containsExactly("Name", "Ready", "Up-to-date", "Available", "Age",
        "Containers", "Images", "Selector");
    assertThat(cells(t)).containsExactly(Value.of("web"), Value.of("2/3"), Value.of(3),
        Value.of(2), Value.of("5m"), Value.of("nginx"), Value.of("nginx:1"),
        Value.of("app=web"));
    MapValue row = (MapValue) ((ListValue) t.getOrNull("rows")).get(0);
    assertThat(Nested.str(row, "object", "kind")).isEqualTo("PartialObjectMetadata");
    assertThat(Nested.str(row, "object", "metadata", "namespace")).isEqualTo("default");
  }

  @Test
  void podStatusFollowsContainerStates() {
    MapValue pod = yaml(String.join("\n",
        "metadata: {name: p, creationTimestamp: '2025-01-01T00:59:30Z'}",
        "spec: {containers: [{name: a}, {name: b}], nodeName: n1}",
        "status:",
        "  phase: Running",
        "  podIP: 10.0.0.1",
        "  containerStatuses:",
        "  - {name: a, ready: true, restartCount: 1, state: {running: {}}}",
        "  - {name: b, ready: false, restartCount: 2,"
            + " state: {waiting: {reason: CrashLoopBackOff}}}"));
    MapValue t = Tables.of(def("", "v1", "Pod", "pods", false), List.of(),
        Tables.IncludeObject.NONE, "v1").ofObject(pod, NOW, true);
    assertThat(names(t)).startsWith("Name", "Ready", "Status", "Restarts", "Age");
    assertThat(cells(t)).containsExactly(Value.of("p"), Value.of("1/2"),
        Value.of("CrashLoopBackOff"), Value.of("3"), Value.of("30s"), Value.of("10.0.0.1"),
        Value.of("n1"), Value.of("<none>"), Value.of("<none>"));
    MapValue row = (MapValue) ((ListValue) t.getOrNull("rows")).get(0);
    assertThat(row.getOrNull("object")).isEqualTo(Value.nullValue());
  }

  @Test
  void terminatingPod() {
    MapValue pod = yaml("metadata: {name: p, deletionTimestamp: '2025-01-01T00:00:00Z'}\n"
        + "spec: {containers: [{name: a}]}\nstatus: {phase: Running}\n");
    MapValue t = Tables.of(def("", "v1", "Pod", "pods", false), List.of(),
        Tables.IncludeObject.METADATA, "v1").ofObject(pod, NOW, true);
    assertThat(cells(t).get(2)).isEqualTo(Value.of("Terminating"));
    assertThat(cells(t).get(4)).isEqualTo(Value.of("<unknown>"));
  }

  @Test
  void serviceColumns() {
    MapValue svc = yaml(String.join("\n",
        "metadata: {name: s, creationTimestamp: '2025-01-01T00:00:00Z'}",
        "spec: {type: NodePort, clusterIP: 10.96.0.5, selector: {app: web, tier: fe},",
        "  ports: [{port: 80, nodePort: 30080, protocol: TCP}, {port: 53, protocol: UDP}]}"));
    MapValue t = Tables.of(def("", "v1", "Service", "services", false), List.of(),
        Tables.IncludeObject.METADATA, "v1").ofObject(svc, NOW, true);
    assertThat(names(t)).containsExactly("Name", "Type", "Cluster-IP", "External-IP", "Port(s)",
        "Age", "Selector");
    assertThat(cells(t)).containsExactly(Value.of("s"), Value.of("NodePort"),
        Value.of("10.96.0.5"), Value.of("<none>"), Value.of("80:30080/TCP,53/UDP"),
        Value.of("60m"), Value.of("app=web,tier=fe"));
  }

  @Test
  void configMapCountsDataAndBinaryData() {
    MapValue list = yaml(String.join("\n",
        "kind: ConfigMapList",
        "apiVersion: v1",
        "metadata: {resourceVersion: '42', continue: abc}",
        "items:",
        "- metadata: {name: a, creationTimestamp: '2025-01-01T00:00:00Z'}",
        "  data: {x: '1', y: '2'}",
        "  binaryData: {z: AA==}",
        "- metadata: {name: b, creationTimestamp: '2025-01-01T00:00:00Z'}"));
    MapValue t = Tables.of(def("", "v1", "ConfigMap", "configmaps", false), List.of(),
        Tables.IncludeObject.METADATA, "v1beta1").ofList(list, NOW);
    assertThat(t.getOrNull("apiVersion")).isEqualTo(Value.of("meta.k8s.io/v1beta1"));
    assertThat(Nested.str(t, "metadata", "continue")).isEqualTo("abc");
    assertThat(names(t)).containsExactly("Name", "Data", "Age");
    ListValue rows = (ListValue) t.getOrNull("rows");
    assertThat(rows.size()).isEqualTo(2);
    assertThat(Nested.getOrNull(rows.get(0), "cells")).isEqualTo(ListValue.of(List.of(Value.of("a"),
        Value.of(3), Value.of("60m"))));
    assertThat(Nested.getOrNull(rows.get(1), "cells")).isEqualTo(ListValue.of(List.of(Value.of("b"),
        Value.of(0), Value.of("60m"))));
  }

  @Test
  void eventsLeadWithLastSeen() {
    MapValue e = yaml(String.join("\n",
        "metadata: {name: web.1, creationTimestamp: '2025-01-01T00:00:00Z'}",
        "involvedObject: {kind: Pod, name: web-1}",
        "reason: Scheduled",
        "message: assigned",
        "type: Normal",
        "count: 2",
        "firstTimestamp: '2025-01-01T00:00:00Z'",
        "lastTimestamp: '2025-01-01T00:58:00Z'",
        "source: {component: scheduler}"));
    MapValue t = Tables.of(def("", "v1", "Event", "events", false), List.of(),
        Tables.IncludeObject.METADATA, "v1").ofObject(e, NOW, true);
    assertThat(names(t)).containsExactly("Last Seen", "Type", "Reason", "Object", "Subobject",
        "Source", "Message", "First Seen", "Count", "Name");
    assertThat(cells(t)).containsExactly(Value.of("2m"), Value.of("Normal"),
        Value.of("Scheduled"), Value.of("pod/web-1"), Value.of(""), Value.of("scheduler"),
        Value.of("assigned"), Value.of("60m"), Value.of("2"), Value.of("web.1"));
  }

  @Test
  void kindsWithoutPrinterGetNameAndCreatedAt() {
    MapValue o = yaml("metadata: {name: crontabs.stable.example.com,"
        + " creationTimestamp: '2025-01-01T00:00:00Z'}\n");
    MapValue t = Tables.of(def("apiextensions.k8s.io", "v1", "CustomResourceDefinition",
        "customresourcedefinitions", false), List.of(), Tables.IncludeObject.METADATA, "v1")
        .ofObject(o, NOW, true);
    assertThat(names(t)).containsExactly("Name", "Created At");
    assertThat(cells(t)).containsExactly(Value.of("crontabs.stable.example.com"),
        Value.of("2025-01-01T00:00:00Z"));
  }

  @Test
  void customResourcesUseDeclaredPrinterColumns() {
    List<Tables.PrinterColumn> cols = List.of(
        new Tables.PrinterColumn("Spec", "string", "", "", 0, ".spec.cronSpec"),
        new Tables.PrinterColumn("Replicas", "integer", "", "", 0, ".spec.replicas"),
        new Tables.PrinterColumn("Ready", "string", "", "", 0,
            ".status.conditions[?(@.type==\"Ready\")].status"),
        new Tables.PrinterColumn("Missing", "string", "", "", 1, ".spec.nothing"),
        new Tables.PrinterColumn("Age", "date", "", "", 0, ".metadata.creationTimestamp"));
    MapValue cr = yaml(String.join("\n",
        "metadata: {name: c1, creationTimestamp: '2025-01-01T00:00:00Z'}",
        "spec: {cronSpec: '* * * * */5', replicas: 2}",
        "status: {conditions: [{type: Synced, status: 'False'}, {type: Ready, status: 'True'}]}"));
    MapValue t = Tables.of(def("stable.example.com", "v1", "CronTab", "crontabs", true), cols,
        Tables.IncludeObject.METADATA, "v1").ofObject(cr, NOW, true);
    assertThat(names(t)).containsExactly("Name", "Spec", "Replicas", "Ready", "Missing", "Age");
    assertThat(cells(t)).containsExactly(Value.of("c1"), Value.of("* * * * */5"), Value.of(2),
        Value.of("True"), Value.nullValue(), Value.of("60m"));
    // kube's tableconvertor describes a column without a description by its path
    MapValue spec = (MapValue) ((ListValue) t.getOrNull("columnDefinitions")).get(1);
    assertThat(Nested.str(spec, "description"))
        .isEqualTo("Custom resource definition column (in JSONPath format): .spec.cronSpec");
    MapValue missing = (MapValue) ((ListValue) t.getOrNull("columnDefinitions")).get(4);
    assertThat(missing.getOrNull("priority")).isEqualTo(Value.of(1));
  }

  @Test
  void customResourcesWithoutColumnsShowAge() {
    MapValue cr = yaml("metadata: {name: c1, creationTimestamp: '2025-01-01T00:59:00Z'}\n");
    MapValue t = Tables.of(def("stable.example.com", "v1", "CronTab", "crontabs", true),
        List.of(), Tables.IncludeObject.OBJECT, "v1").ofObject(cr, NOW, false);
    assertThat(t.getOrNull("columnDefinitions")).isEqualTo(Value.nullValue());
    assertThat(cells(t)).containsExactly(Value.of("c1"), Value.of("60s"));
    MapValue row = (MapValue) ((ListValue) t.getOrNull("rows")).get(0);
    assertThat(row.getOrNull("object")).isEqualTo(cr);
  }
}
