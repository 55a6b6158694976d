/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingressclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get ingressclasses} columns of kube's {@code printIngressClass}. */
public final class IngressClassPrinter {
  private IngressClassPrinter() {}

  /** The IngressClass's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Controller", "string", "Controller that is responsible for handling this class"),
        col("Parameters", "string", "A reference to a resource with additional parameters"),
        AGE),
        (o, now) -> row(name(o), str(o, "spec", "controller"), ingressClassParameters(o),
            age(o, now)));
  }

  private static String ingressClassParameters(MapValue o) {
    Value params = Cells.at(o, "spec", "parameters");
    if (params == null || params.isNull()) {
      return "<none>";
    }
    String group = str(params, "apiGroup");
    String kind = str(params, "kind");
    return (group.isEmpty() ? kind : group + "/" + kind) + "/" + str(params, "name");
  }
}
