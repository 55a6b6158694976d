/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.deployment;

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

/** The {@code kubectl get deployments} columns of kube's {@code printDeployment}. */
public final class DeploymentPrinter {
  private static final String APPS = "io.k8s.api.apps.v1.";

  private DeploymentPrinter() {}

  /** The Deployment's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Ready", "string", "Number of the pod with ready state"),
        col("Up-to-date", "integer", doc(APPS + "DeploymentStatus", "updatedReplicas")),
        col("Available", "integer", doc(APPS + "DeploymentStatus", "availableReplicas")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "DeploymentSpec", "selector"))),
        (o, now) -> row(name(o), integer(o, "status", "readyReplicas") + "/" + replicas(o),
            integer(o, "status", "updatedReplicas"), integer(o, "status", "availableReplicas"),
            age(o, now), containers(o), images(o),
            formatLabelSelector(Cells.at(o, "spec", "selector"))));
  }
}
