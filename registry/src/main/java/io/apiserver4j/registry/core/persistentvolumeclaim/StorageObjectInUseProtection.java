/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolumeclaim;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.registry.internal.Admissions;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's {@code StorageObjectInUseProtection} plugin
 * ({@code plugin/pkg/admission/storage/storageobjectinuseprotection}): a created
 * PersistentVolume gets the {@code kubernetes.io/pv-protection} finalizer and a created
 * PersistentVolumeClaim the {@code kubernetes.io/pvc-protection} finalizer, unless they have it.
 * Side effects: none. Thread-safe.
 */
public final class StorageObjectInUseProtection implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "StorageObjectInUseProtection";
  static final String PV_FINALIZER = "kubernetes.io/pv-protection";
  static final String PVC_FINALIZER = "kubernetes.io/pvc-protection";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return Admissions.isMain(a, "", "persistentvolumes", Operation.CREATE)
        || Admissions.isMain(a, "", "persistentvolumeclaims", Operation.CREATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    String finalizer = a.resource().resource().equals("persistentvolumes") ? PV_FINALIZER
        : PVC_FINALIZER;
    List<String> finalizers = Meta.finalizers(object);
    if (finalizers.contains(finalizer)) {
      return object;
    }
    List<String> out = new ArrayList<>(finalizers);
    out.add(finalizer);
    return Meta.withFinalizers(object, out);
  }
}
