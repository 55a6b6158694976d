/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.statefulset;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.containers;
import static io.apiserver4j.registry.internal.Cells.images;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.replicas;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get statefulsets} columns of kube's {@code printStatefulSet}. */
public final class StatefulSetPrinter {
  private StatefulSetPrinter() {}

  /** The StatefulSet's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Ready", "string", "Number of the pod with ready state"), AGE, CONTAINERS, IMAGES),
        (o, now) -> row(name(o), integer(o, "status", "readyReplicas") + "/" + replicas(o),
            age(o, now), containers(o), images(o)));
  }
}
