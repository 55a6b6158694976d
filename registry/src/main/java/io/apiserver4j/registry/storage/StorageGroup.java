/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.storage.csidriver.CsiDriverPrinter;
import io.apiserver4j.registry.storage.csidriver.CsiDriverStrategy;
import io.apiserver4j.registry.storage.csinode.CsiNodePrinter;
import io.apiserver4j.registry.storage.csinode.CsiNodeStrategy;
import io.apiserver4j.registry.storage.csistoragecapacity.CsiStorageCapacityPrinter;
import io.apiserver4j.registry.storage.storageclass.StorageClassPrinter;
import io.apiserver4j.registry.storage.storageclass.StorageClassStrategy;
import io.apiserver4j.registry.storage.volumeattachment.VolumeAttachmentPrinter;
import io.apiserver4j.registry.storage.volumeattachment.VolumeAttachmentStrategy;
import io.apiserver4j.registry.storage.volumeattributesclass.VolumeAttributesClassPrinter;
import io.apiserver4j.registry.storage.volumeattributesclass.VolumeAttributesClassStrategy;
import java.util.List;

/** The kinds of the {@code storage} API group with their registry behaviour (kube's pkg/registry/storage). */
public final class StorageGroup {
  private StorageGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(storage("StorageClass"), StorageClassStrategy.strategy(),
            StorageClassPrinter::printer),
        BuiltinKind.of(storage("CSIDriver"), CsiDriverStrategy.strategy(),
            CsiDriverPrinter::printer),
        BuiltinKind.of(storage("CSINode"), CsiNodeStrategy.strategy(), CsiNodePrinter::printer),
        BuiltinKind.of(storage("VolumeAttachment"), VolumeAttachmentStrategy.strategy(),
            VolumeAttachmentPrinter::printer),
        BuiltinKind.of(storage("VolumeAttributesClass"),
            VolumeAttributesClassStrategy.strategy(), VolumeAttributesClassPrinter::printer),
        // kube validates CSIStorageCapacity; here it has kube's columns only so far
        BuiltinKind.of(storage("CSIStorageCapacity"), ResourceStrategy.defaults(),
            CsiStorageCapacityPrinter::printer));
  }

  private static GroupVersionKind storage(String kind) {
    return new GroupVersionKind("storage.k8s.io", "v1", kind);
  }
}
