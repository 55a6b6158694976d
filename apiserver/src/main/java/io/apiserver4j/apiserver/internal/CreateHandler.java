package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.dryrun.OptionsKind;
import java.util.Optional;

/** POST of a new object: kube's {@code createHandler} over {@code Store.Create}. */
final class CreateHandler {
  private final Bodies bodies;
  private final FieldManagers fieldManagers;
  private final AdmissionStage admission;
  private final GuaranteedWrite write;

  CreateHandler(Bodies bodies, FieldManagers fieldManagers, AdmissionStage admission,
      GuaranteedWrite write) {
    this.bodies = bodies;
    this.fieldManagers = fieldManagers;
    this.admission = admission;
    this.write = write;
  }

  ApiResponse create(Scope s) {
    if (!s.subresource().isEmpty()) {
      throw Endpoints.methodNotAllowed();
    }
    WriteOptionRules.check(s.request(), OptionsKind.CREATE_OPTIONS, Optional.empty());
    ResourceDefinition def = s.def();
    MapValue requested = bodies.decodeObject(s, def.kind(), def.schema(), def.schemaType(),
        def.strategy().defaulter());
    if (def.strategy().virtualCreate().isPresent()) {
      MapValue answer = def.strategy().virtualCreate().get().create(s.request().user(),
          s.namespace(), requested);
      return new ApiResponse(201, answer, s.warnings().list());
    }
    String name = Meta.metaString(requested, "name");
    MapValue obj = ObjectMetaRules.wipeSystemFields(requested);
    obj = ObjectMetaRules.ensureNamespace(obj, s.objectNamespace());
    obj = ObjectMetaRules.dedupOwnerReferences(s, obj, false);
    obj = fieldManagers.of(def, "").update(StorageForm.zeroObject(def), obj, s.manager(),
        s.now());
    obj = admission.mutate(s, def.kind(), name, obj, null);
    obj = ObjectMetaRules.dedupOwnerReferences(s, obj, true);
    MapValue created = write.create(s, obj).object();
    return new ApiResponse(201, s.storage().createdResponse().apply(requested, created),
        s.warnings().list());
  }
}
