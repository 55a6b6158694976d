/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.csistoragecapacity;

import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orUnset;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's CsiStorageCapacity columns (pkg/printers/internalversion). */
public final class CsiStorageCapacityPrinter {
  private CsiStorageCapacityPrinter() {}

  /** Name, StorageClassName, Capacity. */
  public static TablePrinter printer() {
    String cap = "io.k8s.api.storage.v1.CSIStorageCapacity";
    return TablePrinter.of(List.of(NAME,
        col("StorageClassName", "string", doc(cap, "storageClassName")),
        col("Capacity", "string", doc(cap, "capacity"))),
        (o, now) -> row(name(o), str(o, "storageClassName"),
            orUnset(str(o, "capacity"))));
  }
}
