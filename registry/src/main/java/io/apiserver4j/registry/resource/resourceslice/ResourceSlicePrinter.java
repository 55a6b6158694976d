/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.resourceslice;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's ResourceSlice columns (pkg/printers/internalversion). */
public final class ResourceSlicePrinter {
  private ResourceSlicePrinter() {}

  /** Name, Node ({@code <none>} for slices not bound to one node), Driver, Pool, Age. */
  public static TablePrinter printer() {
    String rs = "io.k8s.api.resource.v1.";
    return TablePrinter.of(List.of(NAME,
        col("Node", "string", doc(rs + "ResourceSliceSpec", "nodeName")),
        col("Driver", "string", doc(rs + "ResourceSliceSpec", "driver")),
        col("Pool", "string", doc(rs + "ResourcePool", "name")), AGE),
        (o, now) -> row(name(o), orDefault(str(o, "spec", "nodeName"), "<none>"),
            str(o, "spec", "driver"), str(o, "spec", "pool", "name"), age(o, now)));
  }
}
