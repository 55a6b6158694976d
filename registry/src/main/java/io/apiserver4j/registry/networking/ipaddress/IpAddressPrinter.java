/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ipaddress;

import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get ipaddresses} columns of kube's {@code printIPAddress}. */
public final class IpAddressPrinter {
  private IpAddressPrinter() {}

  /** The IPAddress's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("ParentRef", "string", doc("io.k8s.api.networking.v1.IPAddressSpec", "parentRef"))),
        (o, now) -> row(name(o), parentRef(o)));
  }

  private static String parentRef(MapValue o) {
    Value ref = Cells.at(o, "spec", "parentRef");
    if (ref == null || ref.isNull()) {
      return "<none>";
    }
    String group = str(ref, "group");
    String resource = str(ref, "resource");
    String gr = group.isEmpty() ? resource : resource + "." + group;
    String ns = str(ref, "namespace");
    return gr + "/" + (ns.isEmpty() ? "" : ns + "/") + str(ref, "name");
  }
}
