/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolumeclaim;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.accessModes;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orUnset;
import static io.apiserver4j.registry.internal.Cells.phase;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.storageClass;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/**
 * The PersistentVolumeClaim table (kube's {@code printPersistentVolumeClaim}): capacity and
 * access modes are shown once the claim is bound to a volume.
 */
public final class PersistentVolumeClaimPrinter {
  private static final String CORE = "io.k8s.api.core.v1.";

  private PersistentVolumeClaimPrinter() {}

  /** The PersistentVolumeClaim printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Status", "string", doc(CORE + "PersistentVolumeClaimStatus", "phase")),
        col("Volume", "string", doc(CORE + "PersistentVolumeClaimSpec", "volumeName")),
        col("Capacity", "string", doc(CORE + "PersistentVolumeClaimStatus", "capacity")),
        col("Access Modes", "string", doc(CORE + "PersistentVolumeClaimStatus", "accessModes")),
        col("StorageClass", "string", "StorageClass of the pvc"),
        col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"), AGE,
        wide("VolumeMode", "string", doc(CORE + "PersistentVolumeClaimSpec", "volumeMode"))),
        (o, now) -> {
          boolean bound = !str(o, "spec", "volumeName").isEmpty();
          return row(name(o), phase(o), str(o, "spec", "volumeName"),
              bound ? str(o, "status", "capacity", "storage") : "",
              bound ? accessModes(list(o, "status", "accessModes")) : "", storageClass(o),
              orUnset(str(o, "spec", "volumeAttributesClassName")), age(o, now),
              orUnset(str(o, "spec", "volumeMode")));
        });
  }
}
