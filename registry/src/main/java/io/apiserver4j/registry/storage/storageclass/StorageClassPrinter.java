/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.storageclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.isDefaultClass;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orDefault;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's StorageClass columns (pkg/printers/internalversion). */
public final class StorageClassPrinter {
  private StorageClassPrinter() {}

  /** Name (marked {@code (default)} for the default class), Provisioner, ReclaimPolicy,
   * VolumeBindingMode, AllowVolumeExpansion, Age. */
  public static TablePrinter printer() {
    String sc = "io.k8s.api.storage.v1.StorageClass";
    return TablePrinter.of(List.of(NAME,
        col("Provisioner", "string", doc(sc, "provisioner")),
        col("ReclaimPolicy", "string", doc(sc, "reclaimPolicy")),
        col("VolumeBindingMode", "string", doc(sc, "volumeBindingMode")),
        col("AllowVolumeExpansion", "string", doc(sc, "allowVolumeExpansion")), AGE),
        (o, now) -> row(isDefaultClass(o) ? name(o) + " (default)" : name(o),
            str(o, "provisioner"), orDefault(str(o, "reclaimPolicy"), "Delete"),
            orDefault(str(o, "volumeBindingMode"), "Immediate"),
            Boolean.toString(bool(o, "allowVolumeExpansion")), age(o, now)));
  }
}
