/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.servicecidr;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.strings;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get servicecidrs} columns of kube's {@code printServiceCIDR}. */
public final class ServiceCidrPrinter {
  private ServiceCidrPrinter() {}

  /** The ServiceCIDR's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("CIDRs", "string", doc("io.k8s.api.networking.v1.ServiceCIDRSpec", "cidrs")), AGE),
        (o, now) -> row(name(o), strings(list(o, "spec", "cidrs")), age(o, now)));
  }
}
