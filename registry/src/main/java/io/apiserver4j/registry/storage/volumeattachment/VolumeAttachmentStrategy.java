/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.volumeattachment;

import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.storage.validation.StorageValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * kube's pkg/registry/storage/volumeattachment strategy: {@code ValidateVolumeAttachment}
 * (attacher, exactly one source, node name) and its update form (the spec never changes).
 */
public final class VolumeAttachmentStrategy {
  private VolumeAttachmentStrategy() {}

  /** The VolumeAttachment strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(VolumeAttachmentStrategy::validateVolumeAttachment)
        .build();
  }

  private static List<FieldError> validateVolumeAttachment(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String attacher = str(spec, "attacher");
    StorageValidation.csiDriverName(errs, "spec.attacher", attacher);
    boolean pv = present(spec, "source", "persistentVolumeName");
    boolean inline = present(spec, "source", "inlineVolumeSpec");
    if (!pv && !inline) {
      errs.add(FieldError.required("spec.source",
          "must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
    } else if (pv && inline) {
      errs.add(FieldError.forbidden("spec.source",
          "must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
    } else if (pv) {
      String name = str(spec, "source", "persistentVolumeName");
      if (name.isEmpty()) {
        errs.add(FieldError.required("spec.source.persistentVolumeName",
            "must specify non empty persistentVolumeName"));
      }
      for (String msg : MetaValidation.dns1123Subdomain(name)) {
        if (!name.isEmpty()) {
          errs.add(FieldError.invalid("spec.source.persistentVolumeName", Value.of(name), msg));
        }
      }
    }
    String node = str(spec, "nodeName");
    for (String msg : MetaValidation.dns1123Subdomain(node)) {
      errs.add(FieldError.invalid("spec.nodeName", Value.of(node), msg));
    }
    if (old.isPresent() && !Objects.equals(spec, Nested.map(old.get(), "spec"))) {
      // kube prints the internal spec struct, whose fields have no JSON names
      String source = pv ? "{\"PersistentVolumeName\":"
          + GoStrings.quote(str(spec, "source", "persistentVolumeName"))
          + ",\"InlineVolumeSpec\":null}" : "{\"PersistentVolumeName\":null,\"InlineVolumeSpec\":"
          + Nested.getOrNull(spec, "source", "inlineVolumeSpec") + "}";
      errs.add(FieldError.invalidOmitValue("spec", "{\"Attacher\":" + GoStrings.quote(attacher)
          + ",\"Source\":" + source + ",\"NodeName\":" + GoStrings.quote(node)
          + "}: field is immutable"));
    }
    return errs;
  }
}
