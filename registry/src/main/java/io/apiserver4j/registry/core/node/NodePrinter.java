/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.node;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Node table (kube's {@code printNode}): readiness (and cordoning), roles from the
 * {@code node-role.kubernetes.io/*} labels, kubelet version and, wide, addresses and system info.
 */
public final class NodePrinter {
  private static final String CORE = "io.k8s.api.core.v1.";

  private NodePrinter() {}

  /** The Node printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME, col("Status", "string", "The status of the node"),
        col("Roles", "string", "The roles of the node"), AGE,
        col("Version", "string", doc(CORE + "NodeSystemInfo", "kubeletVersion")),
        wide("Internal-IP", "string", doc(CORE + "NodeStatus", "addresses")),
        wide("External-IP", "string", doc(CORE + "NodeStatus", "addresses")),
        wide("OS-Image", "string", doc(CORE + "NodeSystemInfo", "osImage")),
        wide("Kernel-Version", "string", doc(CORE + "NodeSystemInfo", "kernelVersion")),
        wide("Container-Runtime", "string", doc(CORE + "NodeSystemInfo",
            "containerRuntimeVersion"))),
        NodePrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String status = "Unknown";
    for (Value c : list(o, "status", "conditions")) {
      if (str(c, "type").equals("Ready")) {
        status = str(c, "status").equals("True") ? "Ready" : "NotReady";
      }
    }
    if (bool(o, "spec", "unschedulable")) {
      status += ",SchedulingDisabled";
    }
    List<String> roles = new ArrayList<>();
    MapValue labels = map(o, "metadata", "labels");
    for (int i = 0; i < labels.size(); i++) {
      String k = labels.keyAt(i);
      if (k.startsWith("node-role.kubernetes.io/")) {
        roles.add(k.substring("node-role.kubernetes.io/".length()));
      } else if (k.equals("kubernetes.io/role")) {
        roles.add(str(labels, k));
      }
    }
    roles.sort(Values::compareStrings);
    return row(name(o), status, roles.isEmpty() ? "<none>" : String.join(",", roles),
        age(o, now), str(o, "status", "nodeInfo", "kubeletVersion"),
        address(o, "InternalIP"), address(o, "ExternalIP"),
        orDefault(str(o, "status", "nodeInfo", "osImage"), "<unknown>"),
        orDefault(str(o, "status", "nodeInfo", "kernelVersion"), "<unknown>"),
        orDefault(str(o, "status", "nodeInfo", "containerRuntimeVersion"), "<unknown>"));
  }

  private static String address(MapValue o, String type) {
    for (Value a : list(o, "status", "addresses")) {
      if (str(a, "type").equals(type)) {
        return str(a, "address");
      }
    }
    return "<none>";
  }
}
