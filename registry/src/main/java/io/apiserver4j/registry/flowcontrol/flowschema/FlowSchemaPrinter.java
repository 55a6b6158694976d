/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.flowschema;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;

/** kube's FlowSchema columns (pkg/printers/internalversion). */
public final class FlowSchemaPrinter {
  private FlowSchemaPrinter() {}

  /**
   * Name, PriorityLevel, MatchingPrecedence, DistinguisherMethod, Age, MissingPL (the status of
   * the Dangling condition).
   */
  public static TablePrinter printer() {
    String fc = "io.k8s.api.flowcontrol.v1.";
    return TablePrinter.of(List.of(NAME,
        col("PriorityLevel", "string", doc(fc + "PriorityLevelConfigurationReference", "name")),
        col("MatchingPrecedence", "string", doc(fc + "FlowSchemaSpec", "matchingPrecedence")),
        col("DistinguisherMethod", "string", doc(fc + "FlowSchemaSpec", "distinguisherMethod")),
        AGE, col("MissingPL", "string", "references a broken or non-existent"
            + " PriorityLevelConfiguration")),
        FlowSchemaPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String method = has(o, "spec", "distinguisherMethod")
        ? str(o, "spec", "distinguisherMethod", "type") : "*";
    String missing = "?";
    for (Value c : list(o, "status", "conditions")) {
      if (str(c, "type").equals("Dangling")) {
        missing = str(c, "status");
      }
    }
    return row(name(o), str(o, "spec", "priorityLevelConfiguration", "name"),
        Long.toString(integer(o, "spec", "matchingPrecedence")), method, age(o, now), missing);
  }
}
