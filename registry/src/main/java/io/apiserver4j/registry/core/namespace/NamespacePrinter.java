/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.namespace;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The Namespace table (kube's {@code printNamespace}): name, phase, age. */
public final class NamespacePrinter {
  private NamespacePrinter() {}

  /** The Namespace printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Status", "string", "The status of the namespace"), AGE),
        (o, now) -> row(name(o), str(o, "status", "phase"), age(o, now)));
  }
}
