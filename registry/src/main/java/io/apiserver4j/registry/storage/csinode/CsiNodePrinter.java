/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.csinode;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's CsiNode columns (pkg/printers/internalversion). */
public final class CsiNodePrinter {
  private CsiNodePrinter() {}

  /** Name, Drivers (their number), Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Drivers", "integer", "Drivers indicates the number of CSI drivers registered on"
            + " the node"), AGE),
        (o, now) -> row(name(o), (long) list(o, "spec", "drivers").size(), age(o, now)));
  }
}
