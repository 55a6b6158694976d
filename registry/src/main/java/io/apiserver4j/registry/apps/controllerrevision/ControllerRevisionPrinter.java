/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.controllerrevision;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Locale;

/** The {@code kubectl get controllerrevisions} columns of kube's {@code printControllerRevision}. */
public final class ControllerRevisionPrinter {
  private ControllerRevisionPrinter() {}

  /** The ControllerRevision's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Controller", "string", "Controller of the object"),
        col("Revision", "string", doc("io.k8s.api.apps.v1.ControllerRevision", "revision")), AGE),
        (o, now) -> row(name(o), controller(o), integer(o, "revision"), age(o, now)));
  }

  // the controlling owner as kind[.group]/name
  private static String controller(MapValue o) {
    for (Value ref : list(o, "metadata", "ownerReferences")) {
      if (bool(ref, "controller")) {
        String apiVersion = str(ref, "apiVersion");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return str(ref, "kind").toLowerCase(Locale.ROOT) + (group.isEmpty() ? "" : "." + group)
            + "/" + str(ref, "name");
      }
    }
    return "<none>";
  }
}
