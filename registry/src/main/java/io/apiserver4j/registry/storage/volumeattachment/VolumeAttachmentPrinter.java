/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.volumeattachment;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter.Column;
import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's VolumeAttachment columns (pkg/printers/internalversion). */
public final class VolumeAttachmentPrinter {
  private VolumeAttachmentPrinter() {}

  /** Name, Attacher, PV, Node, Attached, Age. */
  public static TablePrinter printer() {
    String va = "io.k8s.api.storage.v1.VolumeAttachment";
    return TablePrinter.of(List.of(NAME,
        new Column("Attacher", "string", "name", doc(va + "Spec", "attacher"), 0),
        col("PV", "string", doc(va + "Source", "persistentVolumeName")),
        col("Node", "string", doc(va + "Spec", "nodeName")),
        col("Attached", "boolean", doc(va + "Status", "attached")), AGE),
        (o, now) -> row(name(o), str(o, "spec", "attacher"),
            str(o, "spec", "source", "persistentVolumeName"), str(o, "spec", "nodeName"),
            bool(o, "status", "attached"), age(o, now)));
  }
}
