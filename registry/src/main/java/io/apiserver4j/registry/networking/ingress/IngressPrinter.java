/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingress;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The {@code kubectl get ingresses} columns of kube's {@code printIngress}. */
public final class IngressPrinter {
  private IngressPrinter() {}

  /** The Ingress's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Class", "string", "The name of the IngressClass resource that should be used for"
            + " additional configuration"),
        col("Hosts", "string", "Hosts that incoming requests are matched against before the"
            + " ingress rule"),
        col("Address", "string", "Address is a list containing ingress points for the"
            + " load-balancer"),
        col("Ports", "string", "Ports of TLS configurations that open"), AGE),
        IngressPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    List<String> hosts = new ArrayList<>();
    for (Value rule : list(o, "spec", "rules")) {
      hosts.add(orDefault(str(rule, "host"), "*"));
    }
    String hostList;
    if (hosts.isEmpty()) {
      hostList = "*";
    } else if (hosts.size() > 3) {
      hostList = String.join(",", hosts.subList(0, 3)) + " + " + (hosts.size() - 3)
          + " more...";
    } else {
      hostList = String.join(",", hosts);
    }
    List<String> addresses = new ArrayList<>();
    for (Value ing : list(o, "status", "loadBalancer", "ingress")) {
      addresses.add(str(ing, "ip").isEmpty() ? str(ing, "hostname") : str(ing, "ip"));
    }
    return row(name(o), orNone(str(o, "spec", "ingressClassName")), hostList,
        String.join(",", addresses), list(o, "spec", "tls").isEmpty() ? "80" : "80, 443",
        age(o, now));
  }
}
