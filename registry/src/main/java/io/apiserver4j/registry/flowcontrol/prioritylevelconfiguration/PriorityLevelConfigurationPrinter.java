/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.prioritylevelconfiguration;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.time.Instant;
import java.util.List;

/** kube's PriorityLevelConfiguration columns (pkg/printers/internalversion). */
public final class PriorityLevelConfigurationPrinter {
  private PriorityLevelConfigurationPrinter() {}

  /**
   * Name, Type, NominalConcurrencyShares, Queues, HandSize, QueueLengthLimit ({@code <none>}
   * where the type or limit response has none), Age.
   */
  public static TablePrinter printer() {
    String fc = "io.k8s.api.flowcontrol.v1.";
    return TablePrinter.of(List.of(NAME,
        col("Type", "string", doc(fc + "PriorityLevelConfigurationSpec", "type")),
        col("NominalConcurrencyShares", "string", doc(fc + "LimitedPriorityLevelConfiguration",
            "nominalConcurrencyShares")),
        col("Queues", "string", doc(fc + "QueuingConfiguration", "queues")),
        col("HandSize", "string", doc(fc + "QueuingConfiguration", "handSize")),
        col("QueueLengthLimit", "string", doc(fc + "QueuingConfiguration", "queueLengthLimit")),
        AGE),
        PriorityLevelConfigurationPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    String type = str(o, "spec", "type");
    String shares = "<none>";
    String queues = "<none>";
    String handSize = "<none>";
    String queueLengthLimit = "<none>";
    if (type.equals("Limited")) {
      shares = Long.toString(integer(o, "spec", "limited", "nominalConcurrencyShares"));
      if (str(o, "spec", "limited", "limitResponse", "type").equals("Queue")) {
        Value q = Cells.at(o, "spec", "limited", "limitResponse", "queuing");
        queues = Long.toString(integer(q, "queues"));
        handSize = Long.toString(integer(q, "handSize"));
        queueLengthLimit = Long.toString(integer(q, "queueLengthLimit"));
      }
    }
    return row(name(o), type, shares, queues, handSize, queueLengthLimit, age(o, now));
  }
}
