/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apiregistration.apiservice;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;

/** kube-aggregator's APIService columns. */
public final class ApiServicePrinter {
  private ApiServicePrinter() {}

  /**
   * Name, Service ({@code namespace/name}, or {@code Local}), Available (the status of the
   * Available condition, with its reason when not True), Age.
   */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Service", "string", "The reference to the service that hosts this API endpoint."),
        col("Available", "string", "Whether this service is available."), AGE),
        ApiServicePrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String service = has(o, "spec", "service")
        ? str(o, "spec", "service", "namespace") + "/" + str(o, "spec", "service", "name")
        : "Local";
    String available = "Unknown";
    for (Value c : list(o, "status", "conditions")) {
      if (str(c, "type").equals("Available")) {
        available = str(c, "status");
        if (!available.equals("True") && !str(c, "reason").isEmpty()) {
          available = available + " (" + str(c, "reason") + ")";
        }
      }
    }
    return row(name(o), service, available, age(o, now));
  }
}
