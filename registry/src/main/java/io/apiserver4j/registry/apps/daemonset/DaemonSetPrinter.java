/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.daemonset;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.containers;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.formatLabels;
import static io.apiserver4j.registry.internal.Cells.images;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get daemonsets} columns of kube's {@code printDaemonSet}. */
public final class DaemonSetPrinter {
  private static final String APPS = "io.k8s.api.apps.v1.";

  private DaemonSetPrinter() {}

  /** The DaemonSet's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Desired", "integer", doc(APPS + "DaemonSetStatus", "desiredNumberScheduled")),
        col("Current", "integer", doc(APPS + "DaemonSetStatus", "currentNumberScheduled")),
        col("Ready", "integer", doc(APPS + "DaemonSetStatus", "numberReady")),
        col("Up-to-date", "integer", doc(APPS + "DaemonSetStatus", "updatedNumberScheduled")),
        col("Available", "integer", doc(APPS + "DaemonSetStatus", "numberAvailable")),
        col("Node Selector", "string", doc("io.k8s.api.core.v1.PodSpec", "nodeSelector")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "DaemonSetSpec", "selector"))),
        (o, now) -> row(name(o), integer(o, "status", "desiredNumberScheduled"),
            integer(o, "status", "currentNumberScheduled"), integer(o, "status", "numberReady"),
            integer(o, "status", "updatedNumberScheduled"),
            integer(o, "status", "numberAvailable"),
            formatLabels(map(o, "spec", "template", "spec", "nodeSelector")), age(o, now),
            containers(o), images(o), formatLabelSelector(Cells.at(o, "spec", "selector"))));
  }
}
