/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.podtemplate;

import static io.apiserver4j.registry.internal.Cells.CONTAINERS;
import static io.apiserver4j.registry.internal.Cells.IMAGES;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.formatLabels;
import static io.apiserver4j.registry.internal.Cells.join;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The {@code kubectl get podtemplates} columns of kube's {@code printPodTemplate}. */
public final class PodTemplatePrinter {
  private PodTemplatePrinter() {}

  /** The PodTemplate's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Containers", "string", CONTAINERS.description()),
        col("Images", "string", IMAGES.description()),
        col("Pod Labels", "string", "The labels for the pod template.")),
        (o, now) -> row(name(o), join(list(o, "template", "spec", "containers"), "name"),
            join(list(o, "template", "spec", "containers"), "image"),
            formatLabels(map(o, "template", "metadata", "labels"))));
  }
}
