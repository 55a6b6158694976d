/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabels;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Service table (kube's {@code printService}): type, cluster IP, external IPs (load
 * balancer ingress, or {@code <pending>}), ports with their node ports, and the selector.
 */
public final class ServicePrinter {
  private static final String SPEC = "io.k8s.api.core.v1.ServiceSpec";

  private ServicePrinter() {}

  /** The Service printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME, col("Type", "string", doc(SPEC, "type")),
        col("Cluster-IP", "string", doc(SPEC, "clusterIP")),
        col("External-IP", "string", doc(SPEC, "externalIPs")),
        col("Port(s)", "string", doc(SPEC, "ports")), AGE,
        wide("Selector", "string", doc(SPEC, "selector"))),
        ServicePrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String type = orDefault(str(o, "spec", "type"), "ClusterIP");
    List<String> external = new ArrayList<>();
    for (Value v : list(o, "spec", "externalIPs")) {
      external.add(v instanceof StringValue s ? s.value() : "");
    }
    String externalIp;
    switch (type) {
      case "ExternalName":
        externalIp = str(o, "spec", "externalName");
        break;
      case "LoadBalancer": {
        List<String> lb = new ArrayList<>();
        for (Value ing : list(o, "status", "loadBalancer", "ingress")) {
          lb.add(str(ing, "ip").isEmpty() ? str(ing, "hostname") : str(ing, "ip"));
        }
        lb.addAll(external);
        externalIp = lb.isEmpty() ? "<pending>" : String.join(",", lb);
        break;
      }
      default:
        externalIp = external.isEmpty() ? "<none>" : String.join(",", external);
    }
    List<String> ports = new ArrayList<>();
    for (Value p : list(o, "spec", "ports")) {
      String proto = orDefault(str(p, "protocol"), "TCP");
      long port = integer(p, "port");
      long nodePort = integer(p, "nodePort");
      ports.add(nodePort > 0 ? port + ":" + nodePort + "/" + proto : port + "/" + proto);
    }
    return row(name(o), type, orNone(str(o, "spec", "clusterIP")), externalIp,
        ports.isEmpty() ? "<none>" : String.join(",", ports), age(o, now),
        formatLabels(map(o, "spec", "selector")));
  }
}
