/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.volumeattributesclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.isDefaultClass;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's VolumeAttributesClass columns (pkg/printers/internalversion). */
public final class VolumeAttributesClassPrinter {
  private VolumeAttributesClassPrinter() {}

  /** Name (marked {@code (default)} for the default class), DriverName, Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("DriverName", "string", doc("io.k8s.api.storage.v1.VolumeAttributesClass",
            "driverName")), AGE),
        (o, now) -> row(isDefaultClass(o) ? name(o) + " (default)" : name(o),
            str(o, "driverName"), age(o, now)));
  }
}
