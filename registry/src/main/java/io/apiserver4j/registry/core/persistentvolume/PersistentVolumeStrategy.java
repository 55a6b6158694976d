/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolume;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PersistentVolumeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;

/**
 * core/v1 PersistentVolume (kube's pkg/registry/core/persistentvolume): {@code
 * SetDefaults_PersistentVolume} (reclaim policy {@code Retain}, volume mode {@code Filesystem}),
 * a new volume is {@code Pending}, and {@code ValidatePersistentVolume}/{@code
 * ValidatePersistentVolumeUpdate} check the spec, exactly one volume source and what may not
 * change.
 */
public final class PersistentVolumeStrategy {
  private static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");
  // the order in which ValidatePersistentVolumeSpec looks at the sources
  private static final List<String> PV_SOURCES = List.of("hostPath", "gcePersistentDisk",
      "awsElasticBlockStore", "glusterfs", "flocker", "nfs", "rbd", "quobyte", "cephfs", "iscsi",
      "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume", "photonPersistentDisk",
      "portworxVolume", "azureDisk", "scaleIO", "local", "storageos", "csi");

  private PersistentVolumeStrategy() {}

  /** The PersistentVolume strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(PersistentVolumeStrategy::defaults)
        .prepareForCreate((o, old) -> Nested.set(o, Value.of("Pending"), "status", "phase"))
        .validator(PersistentVolumeStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
    return Nested.updateMap(Nested.setDefault(o, MapValue.empty(), "spec"), s -> {
      MapValue r = Nested.setDefault(s, Value.of("Retain"), "persistentVolumeReclaimPolicy");
      r = Nested.setDefault(r, Value.of("Filesystem"), "volumeMode");
      return PodSpecDefaults.defaultVolumeSource(r);
    }, "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    PersistentVolumeRules.accessModes(errs, spec, "spec", "");
    MapValue capacity = Nested.map(spec, "capacity");
    if (capacity.isEmpty()) {
      errs.add(FieldError.required("spec.capacity", ""));
    }
    if (!capacity.containsKey("storage") || capacity.size() > 1) {
      errs.add(FieldError.notSupported("spec.capacity", capacity, List.of("storage")));
    }
    for (int i = 0; i < capacity.size(); i++) {
      String at = "spec.capacity[" + capacity.keyAt(i) + "]";
      GroupRules.quantity(errs, at, capacity.valueAt(i)).ifPresent(q -> {
        if (q.value().signum() <= 0) {
          errs.add(FieldError.invalid(at, Value.of(q.toString()), "must be greater than zero"));
        }
      });
    }
    String policy = str(spec, "persistentVolumeReclaimPolicy");
    if (!policy.isEmpty() && !RECLAIM_POLICIES.contains(policy)) {
      errs.add(FieldError.notSupported("spec.persistentVolumeReclaimPolicy", Value.of(policy),
          RECLAIM_POLICIES));
    }
    PersistentVolumeRules.storageClassName(errs, spec, "spec");
    int sources = 0;
    for (String source : PV_SOURCES) {
      if (!present(spec, source)) {
        continue;
      }
      if (sources++ > 0) {
        errs.add(FieldError.forbidden("spec." + source, "may not specify more than 1 volume type"));
        continue;
      }
      validateSource(errs, spec, source);
    }
    if (sources == 0) {
      errs.add(FieldError.required("spec", "must specify a volume type"));
    }
    PersistentVolumeRules.volumeMode(errs, spec, "spec");
    if (old.isPresent()) {
      MapValue oldSpec = Nested.map(old.get(), "spec");
      for (String source : PV_SOURCES) {
        if (!java.util.Objects.equals(spec.getOrNull(source), oldSpec.getOrNull(source))) {
          errs.add(FieldError.forbidden("spec.persistentvolumesource",
              "spec.persistentvolumesource is immutable after creation"));
          break;
        }
      }
      immutable(errs, "volumeMode", spec.getOrNull("volumeMode"), oldSpec.getOrNull("volumeMode"));
      if (present(oldSpec, "nodeAffinity")) {
        immutable(errs, "nodeAffinity", spec.getOrNull("nodeAffinity"),
            oldSpec.getOrNull("nodeAffinity"));
      }
    }
    return errs;
  }

  private static void validateSource(List<FieldError> errs, MapValue spec, String source) {
    String at = "spec." + source;
    switch (source) {
      case "hostPath":
        if (str(spec, source, "path").isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        }
        break;
      case "nfs":
        if (str(spec, source, "server").isEmpty()) {
          errs.add(FieldError.required(at + ".server", ""));
        }
        String path = str(spec, source, "path");
        if (path.isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        } else if (!path.startsWith("/")) {
          errs.add(FieldError.invalid(at + ".path", Value.of(path), "must be an absolute path"));
        }
        break;
      case "local":
        if (str(spec, source, "path").isEmpty()) {
          errs.add(FieldError.required(at + ".path", ""));
        }
        if (!present(spec, "nodeAffinity")) {
          errs.add(FieldError.required("spec.nodeAffinity", "Local volume requires node affinity"));
        }
        break;
      case "csi":
        if (str(spec, source, "driver").isEmpty()) {
          errs.add(FieldError.required(at + ".driver", ""));
        }
        if (str(spec, source, "volumeHandle").isEmpty()) {
          errs.add(FieldError.required(at + ".volumeHandle", ""));
        }
        break;
      default:
        break;
    }
  }
}
