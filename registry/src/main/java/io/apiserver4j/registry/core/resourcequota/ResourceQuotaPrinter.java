/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.resourcequota;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ResourceQuota table (kube's {@code printResourceQuota}): {@code used/hard} per resource,
 * limits apart from requests, sorted by resource name.
 */
public final class ResourceQuotaPrinter {
  private ResourceQuotaPrinter() {}

  /** The ResourceQuota printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Request", "string", "Request represents a minimum amount of cpu/memory that a"
            + " container may consume."),
        col("Limit", "string", "Limits control the maximum amount of cpu/memory that a container"
            + " may use independent of contention on the node."), AGE),
        ResourceQuotaPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    MapValue hard = map(o, "spec", "hard");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < hard.size(); i++) {
      keys.add(hard.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    List<String> requests = new ArrayList<>();
    List<String> limits = new ArrayList<>();
    for (String k : keys) {
      String used = str(o, "status", "used", k);
      String cell = k + ": " + (used.isEmpty() ? "0" : used) + "/" + str(hard, k);
      (k.startsWith("limits.") ? limits : requests).add(cell);
    }
    return row(name(o), String.join(", ", requests), String.join(", ", limits), age(o, now));
  }
}
