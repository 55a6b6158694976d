/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.resourceclaim;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;

/** kube's ResourceClaim columns (pkg/printers/internalversion). */
public final class ResourceClaimPrinter {
  private ResourceClaimPrinter() {}

  /** Name, State (deleted, then allocated or pending, then reserved), Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("State", "string", "A summary of the current state (allocated, pending, reserved,"
            + " etc.)."), AGE),
        (o, now) -> row(name(o), claimState(o), age(o, now)));
  }

  private static String claimState(MapValue o) {
    List<String> states = new ArrayList<>();
    if (has(o, "metadata", "deletionTimestamp")) {
      states.add("deleted");
    }
    states.add(has(o, "status", "allocation") ? "allocated" : "pending");
    if (!list(o, "status", "reservedFor").isEmpty()) {
      states.add("reserved");
    }
    return String.join(",", states);
  }
}
