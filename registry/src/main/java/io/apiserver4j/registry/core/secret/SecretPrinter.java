/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.secret;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The Secret table (kube's {@code printSecret}): name, type, number of keys, age. */
public final class SecretPrinter {
  private static final String SECRET = "io.k8s.api.core.v1.Secret";

  private SecretPrinter() {}

  /** The Secret printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME, col("Type", "string", doc(SECRET, "type")),
        col("Data", "string", doc(SECRET, "data")), AGE),
        (o, now) -> row(name(o), str(o, "type").isEmpty() ? "Opaque" : str(o, "type"),
            (long) map(o, "data").size(), age(o, now)));
  }
}
