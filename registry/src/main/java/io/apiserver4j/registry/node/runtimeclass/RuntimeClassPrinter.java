/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.node.runtimeclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get runtimeclasses} columns of kube's {@code printRuntimeClass}. */
public final class RuntimeClassPrinter {
  private RuntimeClassPrinter() {}

  /** The RuntimeClass's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Handler", "string", doc("io.k8s.api.node.v1.RuntimeClass", "handler")), AGE),
        (o, now) -> row(name(o), str(o, "handler"), age(o, now)));
  }
}
