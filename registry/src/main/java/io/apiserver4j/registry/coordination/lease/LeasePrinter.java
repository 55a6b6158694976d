/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.coordination.lease;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get leases} columns of kube's {@code printLease}. */
public final class LeasePrinter {
  private LeasePrinter() {}

  /** The Lease's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Holder", "string", doc("io.k8s.api.coordination.v1.LeaseSpec", "holderIdentity")),
        AGE),
        (o, now) -> row(name(o), str(o, "spec", "holderIdentity"), age(o, now)));
  }
}
