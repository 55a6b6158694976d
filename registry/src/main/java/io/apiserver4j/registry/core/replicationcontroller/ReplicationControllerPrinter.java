/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.replicationcontroller;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.containers;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabels;
import static io.apiserver4j.registry.internal.Cells.images;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.replicas;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get replicationcontrollers} columns of kube's {@code printReplicationController}. */
public final class ReplicationControllerPrinter {
  private static final String CORE = "io.k8s.api.core.v1.";

  private ReplicationControllerPrinter() {}

  /** The ReplicationController's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Desired", "integer", doc(CORE + "ReplicationControllerSpec", "replicas")),
        col("Current", "integer", doc(CORE + "ReplicationControllerStatus", "replicas")),
        col("Ready", "integer", doc(CORE + "ReplicationControllerStatus", "readyReplicas")), AGE,
        CONTAINERS, IMAGES,
        wide("Selector", "string", doc(CORE + "ReplicationControllerSpec", "selector"))),
        (o, now) -> row(name(o), replicas(o), integer(o, "status", "replicas"),
            integer(o, "status", "readyReplicas"), age(o, now), containers(o), images(o),
            formatLabels(map(o, "spec", "selector"))));
  }
}
