/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.FieldValidation;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apimachinery.managedfields.FieldManager;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apimachinery.patch.Patches;
import io.apiserver4j.apimachinery.patch.ResourceOrigin;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.apimachinery.patch.JsonPatch;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.OptionsKind;
import io.apiserver4j.merge.Force;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PATCH of an object or its status with every patch type: JSON patch, merge patch, strategic
 * merge patch and server-side apply (which may create the object). kube's {@code patchHandler}.
 */
final class PatchHandler {
  private final Bodies bodies;
  private final FieldManagers fieldManagers;
  private final AdmissionStage admission;
  private final GuaranteedWrite write;

  PatchHandler(Bodies bodies, FieldManagers fieldManagers, AdmissionStage admission,
      GuaranteedWrite write) {
    this.bodies = bodies;
    this.fieldManagers = fieldManagers;
    this.admission = admission;
    this.write = write;
  }

  /** A patch of an endpoint, parsed once: its type, its body and whether an apply forces. */
  record Patch(PatchType type, Value body, boolean force, byte[] raw) {}

  /** The request's patch, checked against the endpoint's patch types and the PATCH options. */
  static Patch readPatch(Scope s, Bodies bodies) {
    ResourceDefinition def = s.def();
    PatchType type = PatchType.fromContentType(s.request().contentType(), PatchType.accepted(
        def.customResource() ? ResourceOrigin.CUSTOM_RESOURCE : ResourceOrigin.BUILT_IN,
        PatchType.Cbor.DISABLED));
    byte[] raw = bodies.raw(s);
    WriteOptionRules.check(s.request(), OptionsKind.PATCH_OPTIONS, Optional.of(type));
    Patch patch = new Patch(type, type.isApply() ? Bodies.readApplyBody(raw)
        : Patches.parseBody(raw), s.patchOptions().forces(), raw);
    return patch;
  }

  ApiResponse patch(Scope s) {
    ResourceDefinition def = s.def();
    Patch patch = readPatch(s, bodies);
    PatchType type = patch.type();
    FieldManager fm = fieldManagers.of(def, s.subresource());
    WriteOutcome out = write.update(s, existing -> {
      MapValue patched;
      if (existing == null) {
        if (!type.isApply()) {
          throw StatusErrors.notFound(def.groupResource(), s.name());
        }
        patched = fm.apply(StorageForm.zeroObject(def), (MapValue) patch.body(),
            s.request().fieldManager(), patch.force() ? Force.YES : Force.NO, s.now());
        if (!Meta.metaString(patched, "uid").isEmpty()) {
          throw StatusErrors.conflict(def.groupResource(), s.name(), "uid mismatch: the provided"
              + " object specified uid " + Meta.metaString(patched, "uid")
              + ", and no existing object was found");
        }
      } else if (type.isApply()) {
        patched = fm.apply(existing, (MapValue) patch.body(), s.request().fieldManager(),
            patch.force() ? Force.YES : Force.NO, s.now());
      } else {
        patched = fm.updateNoErrors(existing, patchedObject(s, existing, patch), s.manager(),
            s.now());
      }
      patched = ObjectMetaRules.matchUrl(s, patched);
      patched = admission.mutate(s, def.kind(), s.name(), patched, existing);
      return ObjectMetaRules.dedupOwnerReferences(s, patched, true);
    }, type.isApply(), Optional.empty(), GuaranteedWrite.AdmissionView.of(def));
    return UpdateHandler.respond(s, MapValue.empty(), out);
  }

  /** JSON patch, merge patch or strategic merge patch onto the current object, then decoded. */
  private MapValue patchedObject(Scope s, MapValue current, Patch patch) {
    ResourceDefinition def = s.def();
    List<String> strict = new ArrayList<>();
    if (patch.type() == PatchType.JSON_PATCH && s.validation() != FieldValidation.IGNORE) {
      JsonPatch.strictErrors(patch.body()).forEach(e -> strict.add("json patch " + e));
    }
    Value patched = Patches.apply(patch.type(), current, patch.body(),
        patch.type() == PatchType.STRATEGIC_MERGE_PATCH ? fieldManagers.patchSchema(def)
            : PatchSchema.unknown());
    if (!(patched instanceof MapValue patchedMap)) {
      throw invalidPatch(patched, "Object 'Kind' is missing in '" + Json.write(patched) + "'");
    }
    MapValue typed = StorageForm.withTypeMeta(patchedMap, def.kind());
    if (GoDecoding.applies(def.schema())) {
      typed = GoDecoding.patched(patch.type(), def.schema(), def.schemaType(), typed,
          patch.body(), patch.raw());
    }
    SchemaChecker.Result checked = SchemaChecker.check(def.schema(), def.schemaType(), typed);
    if (!checked.typeErrors().isEmpty()) {
      throw invalidPatch(patchedMap, checked.typeErrors().get(0));
    }
    checked.unknownFields().forEach(p -> strict.add("unknown field " + GoStrings.quote(p)));
    if (!strict.isEmpty() && s.validation() == FieldValidation.STRICT) {
      throw invalidPatch(patchedMap, "strict decoding error: " + String.join(", ", strict));
    }
    Bodies.warnPerValidation(s, strict);
    return StorageForm.typed(def, def.strategy().defaulter().apply(checked.object()));
  }

  private static RuntimeException invalidPatch(Value patched, String detail) {
    return StatusErrors.invalid(new GroupKind("", ""), "", List.of(FieldError.invalid("patch",
        Value.of(Json.write(patched)), detail)));
  }
}
