/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.endpoints;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The Endpoints table (kube's {@code printEndpoints}): the first three ready addresses with
 * their ports, and how many more there are.
 */
public final class EndpointsPrinter {
  private EndpointsPrinter() {}

  /** The Endpoints printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Endpoints", "string", doc("io.k8s.api.core.v1.Endpoints", "subsets")), AGE),
        (o, now) -> row(name(o), endpoints(o), age(o, now)));
  }

  private static String endpoints(MapValue o) {
    List<String> out = new ArrayList<>();
    int total = 0;
    for (Value subset : list(o, "subsets")) {
      for (Value addr : list(subset, "addresses")) {
        List<Value> ports = list(subset, "ports");
        if (ports.isEmpty()) {
          total++;
          if (out.size() < 3) {
            out.add(str(addr, "ip"));
          }
        }
        for (Value port : ports) {
          total++;
          if (out.size() < 3) {
            out.add(str(addr, "ip") + ":" + integer(port, "port"));
          }
        }
      }
    }
    if (total == 0) {
      return "<none>";
    }
    String s = String.join(",", out);
    return total > out.size() ? s + " + " + (total - out.size()) + " more..." : s;
  }
}
