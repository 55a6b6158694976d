/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.scheduling.priorityclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get priorityclasses} columns of kube's {@code printPriorityClass}. */
public final class PriorityClassPrinter {
  private static final String PC = "io.k8s.api.scheduling.v1.PriorityClass";

  private PriorityClassPrinter() {}

  /** The PriorityClass's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Value", "integer", doc(PC, "value")),
        col("Global-Default", "boolean", doc(PC, "globalDefault")), AGE,
        col("PreemptionPolicy", "string", doc(PC, "preemptionPolicy"))),
        (o, now) -> row(name(o), integer(o, "value"), bool(o, "globalDefault"), age(o, now),
            orDefault(str(o, "preemptionPolicy"), "PreemptLowerPriority")));
  }
}
