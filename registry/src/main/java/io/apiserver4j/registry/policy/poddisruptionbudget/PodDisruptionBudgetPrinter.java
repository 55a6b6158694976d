/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.policy.poddisruptionbudget;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get poddisruptionbudgets} columns of kube's {@code printPodDisruptionBudget}. */
public final class PodDisruptionBudgetPrinter {
  private PodDisruptionBudgetPrinter() {}

  /** The PodDisruptionBudget's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Min Available", "string", "The minimum number of pods that must be available."),
        col("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
        col("Allowed Disruptions", "integer",
            "Calculated number of pods that may be disrupted at this time."), AGE),
        (o, now) -> row(name(o), orNa(str(o, "spec", "minAvailable")),
            orNa(str(o, "spec", "maxUnavailable")), integer(o, "status", "disruptionsAllowed"),
            age(o, now)));
  }

  private static String orNa(String s) {
    return s.isEmpty() ? "N/A" : s;
  }
}
