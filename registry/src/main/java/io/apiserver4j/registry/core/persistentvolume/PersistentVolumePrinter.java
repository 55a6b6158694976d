/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolume;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.accessModes;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
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
 * The PersistentVolume table (kube's {@code printPersistentVolume}): capacity, access modes,
 * reclaim policy, phase, claim, classes and reason.
 */
public final class PersistentVolumePrinter {
  private static final String CORE = "io.k8s.api.core.v1.";

  private PersistentVolumePrinter() {}

  /** The PersistentVolume printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Capacity", "string", doc(CORE + "PersistentVolumeSpec", "capacity")),
        col("Access Modes", "string", doc(CORE + "PersistentVolumeSpec", "accessModes")),
        col("Reclaim Policy", "string", doc(CORE + "PersistentVolumeSpec",
            "persistentVolumeReclaimPolicy")),
        col("Status", "string", doc(CORE + "PersistentVolumeStatus", "phase")),
        col("Claim", "string", doc(CORE + "PersistentVolumeSpec", "claimRef")),
        col("StorageClass", "string", "StorageClass of the pv"),
        col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv"),
        col("Reason", "string", doc(CORE + "PersistentVolumeStatus", "reason")), AGE,
        wide("VolumeMode", "string", doc(CORE + "PersistentVolumeSpec", "volumeMode"))),
        (o, now) -> row(name(o), str(o, "spec", "capacity", "storage"),
            accessModes(list(o, "spec", "accessModes")), str(o, "spec",
                "persistentVolumeReclaimPolicy"), phase(o),
            has(o, "spec", "claimRef") ? str(o, "spec", "claimRef", "namespace") + "/"
                + str(o, "spec", "claimRef", "name") : "",
            storageClass(o), orUnset(str(o, "spec", "volumeAttributesClassName")),
            str(o, "status", "reason"), age(o, now),
            orUnset(str(o, "spec", "volumeMode"))));
  }
}
