/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.replicaset;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.containers;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.images;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.replicas;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get replicasets} columns of kube's {@code printReplicaSet}. */
public final class ReplicaSetPrinter {
  private static final String APPS = "io.k8s.api.apps.v1.";

  private ReplicaSetPrinter() {}

  /** The ReplicaSet's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Desired", "integer", doc(APPS + "ReplicaSetSpec", "replicas")),
        col("Current", "integer", doc(APPS + "ReplicaSetStatus", "replicas")),
        col("Ready", "integer", doc(APPS + "ReplicaSetStatus", "readyReplicas")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "ReplicaSetSpec", "selector"))),
        (o, now) -> row(name(o), replicas(o), integer(o, "status", "replicas"),
            integer(o, "status", "readyReplicas"), age(o, now), containers(o), images(o),
            formatLabelSelector(Cells.at(o, "spec", "selector"))));
  }
}
