/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.componentstatus;

import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;

/**
 * The ComponentStatus table (kube's {@code printComponentStatus}): the Healthy condition's
 * status, message and error.
 */
public final class ComponentStatusPrinter {
  private ComponentStatusPrinter() {}

  /** The ComponentStatus printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Status", "string", "Status of the component conditions"),
        col("Message", "string", "Message of the component conditions"),
        col("Error", "string", "Error of the component conditions")),
        ComponentStatusPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String status = "Unknown";
    String message = "";
    String error = "";
    for (Value c : list(o, "conditions")) {
      if (str(c, "type").equals("Healthy")) {
        status = str(c, "status").equals("True") ? "Healthy" : "Unhealthy";
        message = str(c, "message");
        error = str(c, "error");
        break;
      }
    }
    return row(name(o), status, message, error);
  }
}
