/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.storageclass;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.CollectionKey;
import java.util.Optional;

/**
 * kube-apiserver's {@code DefaultStorageClass} plugin
 * ({@code plugin/pkg/admission/storage/storageclass/setdefault}): a PersistentVolumeClaim created
 * without a class (no {@code spec.storageClassName} and no
 * {@code volume.beta.kubernetes.io/storage-class} annotation) gets the default StorageClass's
 * name; the default is the newest class annotated {@code storageclass.kubernetes.io/is-default-class:
 * "true"} (or the beta annotation), the first by name among equally new ones. Nothing changes
 * when there is no default. Side effects: none. Thread-safe.
 */
public final class DefaultStorageClass implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "DefaultStorageClass";
  static final String IS_DEFAULT = "storageclass.kubernetes.io/is-default-class";
  static final String BETA_IS_DEFAULT = "storageclass.beta.kubernetes.io/is-default-class";
  static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading StorageClasses from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public DefaultStorageClass(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

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
    return Admissions.isMain(a, "", "persistentvolumeclaims", Operation.CREATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pvc) {
    MapValue spec = pvc.getOrNull("spec") instanceof MapValue m ? m : MapValue.empty();
    if (spec.containsKey("storageClassName")
        && !(spec.getOrNull("storageClassName") instanceof io.apiserver4j.core.NullValue)
        || Meta.annotations(pvc).containsKey(BETA_CLASS)) {
      return pvc;
    }
    Optional<MapValue> def = Admissions.newestDefault(
        server.list(CollectionKey.all("storage.k8s.io", "storageclasses")), IS_DEFAULT,
        BETA_IS_DEFAULT);
    if (def.isEmpty()) {
      return pvc;
    }
    return pvc.with("spec", spec.with("storageClassName",
        Value.of(Meta.metaString(def.get(), "name"))));
  }
}
