/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apimachinery.managedfields.FieldManager;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.dryrun.OptionsKind;
import java.util.Optional;

/** PUT of an object or its status: kube's {@code updateHandler} over {@code Store.Update}. */
final class UpdateHandler {
  private final Bodies bodies;
  private final FieldManagers fieldManagers;
  private final AdmissionStage admission;
  private final GuaranteedWrite write;

  UpdateHandler(Bodies bodies, FieldManagers fieldManagers, AdmissionStage admission,
      GuaranteedWrite write) {
    this.bodies = bodies;
    this.fieldManagers = fieldManagers;
    this.admission = admission;
    this.write = write;
  }

  ApiResponse update(Scope s) {
    WriteOptionRules.check(s.request(), OptionsKind.UPDATE_OPTIONS, Optional.empty());
    ResourceDefinition def = s.def();
    MapValue body = bodies.decodeObject(s, def.kind(), def.schema(), def.schemaType(),
        def.strategy().defaulter());
    MapValue requested = ObjectMetaRules.dedupOwnerReferences(s,
        ObjectMetaRules.matchUrl(s, body), false);
    String uid = Meta.metaString(requested, "uid");
    FieldManager fm = fieldManagers.of(def, s.subresource());
    WriteOutcome out = write.update(s, existing -> {
      MapValue live = existing == null ? StorageForm.zeroObject(def) : existing;
      MapValue o = fm.updateNoErrors(live, requested, s.manager(), s.now());
      o = admission.mutate(s, def.kind(), s.name(), o, existing);
      return ObjectMetaRules.dedupOwnerReferences(s, o, true);
    }, false, uid.isEmpty() ? Optional.empty() : Optional.of(uid),
        GuaranteedWrite.AdmissionView.of(def));
    return respond(s, requested, out);
  }

  /** The response of a write that may have created the object. */
  static ApiResponse respond(Scope s, MapValue requested, WriteOutcome out) {
    if (out instanceof WriteOutcome.Created c) {
      MapValue body = s.storage().createdResponse().apply(requested, c.object());
      return c.stored() != null && body == c.object()
          ? ApiResponse.of(201, c.stored(), s.warnings().list())
          : new ApiResponse(201, body, s.warnings().list());
    }
    return out.stored() != null
        ? ApiResponse.of(200, out.stored(), s.warnings().list())
        : new ApiResponse(200, out.object(), s.warnings().list());
  }
}
