/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.serviceaccount;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The ServiceAccount table (kube's {@code printServiceAccount}): name, secrets, age. */
public final class ServiceAccountPrinter {
  private ServiceAccountPrinter() {}

  /** The ServiceAccount printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Secrets", "string", doc("io.k8s.api.core.v1.ServiceAccount", "secrets")), AGE),
        (o, now) -> row(name(o), (long) list(o, "secrets").size(), age(o, now)));
  }
}
