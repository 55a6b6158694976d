/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.discovery.endpointslice;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/** The {@code kubectl get endpointslices} columns of kube's {@code printEndpointSlice}. */
public final class EndpointSlicePrinter {
  private static final String ES = "io.k8s.api.discovery.v1.EndpointSlice";

  private EndpointSlicePrinter() {}

  /** The EndpointSlice's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("AddressType", "string", doc(ES, "addressType")),
        col("Ports", "string", doc(ES, "ports")),
        col("Endpoints", "string", doc(ES, "endpoints")), AGE),
        (o, now) -> row(name(o), str(o, "addressType"), slicePorts(o), sliceEndpoints(o),
            age(o, now)));
  }

  private static String slicePorts(MapValue o) {
    List<Value> ports = list(o, "ports");
    if (ports.isEmpty()) {
      return "<unset>";
    }
    List<String> out = new ArrayList<>();
    for (Value p : ports) {
      out.add(has(p, "port") ? Long.toString(integer(p, "port")) : "<unset>");
    }
    return String.join(",", out);
  }
  private static String sliceEndpoints(MapValue o) {
    List<String> addrs = new ArrayList<>();
    for (Value e : list(o, "endpoints")) {
      for (Value a : list(e, "addresses")) {
        addrs.add(a instanceof StringValue s ? s.value() : "");
      }
    }
    if (addrs.isEmpty()) {
      return "<unset>";
    }
    String s = String.join(",", addrs.subList(0, Math.min(3, addrs.size())));
    return addrs.size() > 3 ? s + " + " + (addrs.size() - 3) + " more..." : s;
  }}
