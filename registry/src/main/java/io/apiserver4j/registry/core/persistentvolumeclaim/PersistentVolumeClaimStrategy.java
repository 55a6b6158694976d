/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolumeclaim;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PersistentVolumeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * core/v1 PersistentVolumeClaim (kube's pkg/registry/core/persistentvolumeclaim): the volume
 * mode defaults to {@code Filesystem}, a new claim is {@code Pending}, and
 * {@code ValidatePersistentVolumeClaim}/{@code ValidatePersistentVolumeClaimUpdate} check the
 * spec and what a (bound) claim may change.
 */
public final class PersistentVolumeClaimStrategy {
  private PersistentVolumeClaimStrategy() {}

  /** The PersistentVolumeClaim strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o,
            s -> Nested.setDefault(s, Value.of("Filesystem"), "volumeMode"), "spec"))
        .prepareForCreate((o, old) -> Nested.set(o, Value.of("Pending"), "status", "phase"))
        .validator(PersistentVolumeClaimStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    PersistentVolumeRules.accessModes(errs, spec, "spec", "at least 1 access mode is required");
    // kube's path leaves out "requests"
    Value storage = Nested.getOrNull(spec, "resources", "requests", "storage");
    if (storage == null) {
      errs.add(FieldError.required("spec.resources[storage]", ""));
    } else {
      GroupRules.quantity(errs, "spec.resources[storage]", storage).ifPresent(q -> {
        if (q.value().signum() <= 0) {
          errs.add(FieldError.invalid("spec.resources[storage]", Value.of(q.toString()),
              "must be greater than zero"));
        }
      });
    }
    PersistentVolumeRules.storageClassName(errs, spec, "spec");
    PersistentVolumeRules.volumeMode(errs, spec, "spec");
    if (old.isPresent()) {
      validateUpdate(errs, o, old.get());
    }
    return errs;
  }

  private static void validateUpdate(List<FieldError> errs, MapValue o, MapValue old) {
    MapValue spec = Nested.map(o, "spec");
    MapValue oldSpec = Nested.map(old, "spec");
    boolean bound = str(o, "status", "phase").equals("Bound");
    // the volume name may be set once; a bound claim may change its request and its class
    if (str(oldSpec, "volumeName").isEmpty()) {
      oldSpec = copy(oldSpec, spec, "volumeName");
    }
    MapValue cmpSpec = spec;
    if (bound && present(spec, "resources", "requests")) {
      Value was = Nested.getOrNull(oldSpec, "resources", "requests", "storage");
      cmpSpec = was == null ? Nested.remove(cmpSpec, "resources", "requests", "storage")
          : Nested.set(cmpSpec, was, "resources", "requests", "storage");
    }
    if (bound && present(spec, "volumeAttributesClassName")) {
      cmpSpec = copy(cmpSpec, oldSpec, "volumeAttributesClassName");
    }
    if (!cmpSpec.equals(oldSpec)) {
      errs.add(FieldError.forbidden("spec", "spec is immutable after creation except"
          + " resources.requests and volumeAttributesClassName for bound claims"));
    }
    Optional<Quantity> now = quantityAt(spec, "resources", "requests", "storage");
    Optional<Quantity> was = quantityAt(Nested.map(old, "spec"), "resources", "requests",
        "storage");
    if (now.isPresent() && was.isPresent() && now.get().compareTo(was.get()) < 0) {
      // kube lets a claim shrink back above its capacity, to recover from a failed expansion
      Optional<Quantity> capacity = quantityAt(old, "status", "capacity", "storage");
      if (now.get().compareTo(capacity.orElse(zero())) <= 0) {
        errs.add(FieldError.forbidden("spec.resources.requests.storage",
            "field can not be less than status.capacity"));
      }
    }
    immutable(errs, "volumeMode", spec.getOrNull("volumeMode"),
        Nested.map(old, "spec").getOrNull("volumeMode"));
  }

  private static MapValue copy(MapValue to, MapValue from, String key) {
    Value v = from.getOrNull(key);
    return v == null ? to.without(key) : to.with(key, v);
  }

  private static Quantity zero() {
    return Quantity.parse("0").orElseThrow();
  }

  private static Optional<Quantity> quantityAt(Value v, String... path) {
    Value q = Nested.getOrNull(v, path);
    return q instanceof StringValue s ? Quantity.parse(s.value())
        : q instanceof IntegerValue i ? Quantity.parse(Long.toString(i.value()))
        : Optional.empty();
  }
}
