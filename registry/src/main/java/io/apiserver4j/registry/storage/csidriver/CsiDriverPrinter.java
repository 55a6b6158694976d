/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.csidriver;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.strings;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** kube's CSIDriver columns (pkg/printers/internalversion). */
public final class CsiDriverPrinter {
  private CsiDriverPrinter() {}

  /**
   * Name, AttachRequired, PodInfoOnMount, StorageCapacity, TokenRequests (audiences),
   * RequiresRepublish, Modes, Age.
   */
  public static TablePrinter printer() {
    String csi = "io.k8s.api.storage.v1.CSIDriverSpec";
    return TablePrinter.of(List.of(NAME,
        col("AttachRequired", "boolean", doc(csi, "attachRequired")),
        col("PodInfoOnMount", "boolean", doc(csi, "podInfoOnMount")),
        col("StorageCapacity", "boolean", doc(csi, "storageCapacity")),
        col("TokenRequests", "string", doc(csi, "tokenRequests")),
        col("RequiresRepublish", "boolean", doc(csi, "requiresRepublish")),
        col("Modes", "string", doc(csi, "volumeLifecycleModes")), AGE),
        CsiDriverPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    List<String> audiences = new ArrayList<>();
    for (Value t : list(o, "spec", "tokenRequests")) {
      audiences.add(str(t, "audience"));
    }
    List<Value> modes = list(o, "spec", "volumeLifecycleModes");
    return row(name(o), !has(o, "spec", "attachRequired") || bool(o, "spec", "attachRequired"),
        bool(o, "spec", "podInfoOnMount"), bool(o, "spec", "storageCapacity"),
        audiences.isEmpty() ? "<unset>" : String.join(",", audiences),
        bool(o, "spec", "requiresRepublish"),
        modes.isEmpty() ? "Persistent" : strings(modes), age(o, now));
  }
}
