/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolumeclaim;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.ObjectKey;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * kube-apiserver's {@code PersistentVolumeClaimResize} plugin
 * ({@code plugin/pkg/admission/storage/persistentvolume/resize}): an update that grows a claim's
 * {@code spec.resources.requests.storage} is refused (403) unless the claim is bound
 * ({@code Only bound persistent volume claims can be expanded}) and its StorageClass, the same
 * before and after, has {@code allowVolumeExpansion: true} ({@code only dynamically provisioned
 * pvc can be resized and the storageclass that provisions the pvc must support resize}). Side
 * effects: none. Thread-safe.
 */
public final class PersistentVolumeClaimResize implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PersistentVolumeClaimResize";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading StorageClasses from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public PersistentVolumeClaimResize(AdmissionPluginContext server) {
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
    return Admissions.isMain(a, "", "persistentvolumeclaims", Operation.UPDATE)
        && a.oldObject().isPresent();
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pvc = a.object().orElseThrow();
    MapValue old = a.oldObject().orElseThrow();
    BigDecimal newSize = size(pvc);
    BigDecimal oldSize = size(old);
    if (newSize.compareTo(oldSize) <= 0) {
      return;
    }
    if (!"Bound".equals(Nested.str(old, "status", "phase"))) {
      throw AdmissionErrors.forbidden(a, "Only bound persistent volume claims can be expanded");
    }
    if (!allowResize(pvc, old)) {
      throw AdmissionErrors.forbidden(a, "only dynamically provisioned pvc can be resized and "
          + "the storageclass that provisions the pvc must support resize");
    }
  }

  private static BigDecimal size(MapValue pvc) {
    Value v = Nested.getOrNull(pvc, "spec", "resources", "requests", "storage");
    String text = v instanceof StringValue s ? s.value() : v == null ? "0" : v.toString();
    return KubeValidation.quantity(text).orElse(BigDecimal.ZERO);
  }

  /** kube's {@code GetPersistentVolumeClaimClass}: the beta annotation first, then the field. */
  static String storageClass(MapValue pvc) {
    String beta = Meta.annotations(pvc).get("volume.beta.kubernetes.io/storage-class");
    if (beta != null) {
      return beta;
    }
    return Nested.str(pvc, "spec", "storageClassName");
  }

  private boolean allowResize(MapValue pvc, MapValue old) {
    String now = storageClass(pvc);
    String before = storageClass(old);
    if (now.isEmpty() || before.isEmpty() || !now.equals(before)) {
      return false;
    }
    Optional<MapValue> sc = server.get(ObjectKey.clusterScoped("storage.k8s.io",
        "storageclasses", now));
    return sc.isPresent() && sc.get().getOrNull("allowVolumeExpansion") instanceof BooleanValue b
        && b.value();
  }
}
