package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
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
    WriteOptionRules.check(s.request(), OptionsKind.CREATE_OPTIONS, Optional.empty());
    ResourceDefinition def = s.def();
    if (!s.subresource().isEmpty()) {
      return createSubresource(s, def);
    }
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

  /** kube's create handler over a {@code NamedCreater}: the body is the subresource's kind. */
  private ApiResponse createSubresource(Scope s, ResourceDefinition def) {
    ResourceStrategy.SubresourceCreate create = def.strategy().subresourceCreate(s.subresource())
        .orElseThrow(Endpoints::methodNotAllowed);
    ResourceDefinition.Subresource sub = def.discoverySubresources().stream()
        .filter(d -> d.name().equals(s.subresource())).findFirst()
        .orElseThrow(() -> new IllegalStateException("no kind for " + def.groupResource() + "/"
            + s.subresource()));
    String schemaType = BuiltinKinds.subresourceSchemaType(def.resource(), s.subresource())
        .orElseThrow(() -> new IllegalStateException("no schema for " + def.groupResource()
            + "/" + s.subresource()));
    MapValue requested = bodies.decodeObject(s, sub.kind(), def.schema(), schemaType, o -> o);
    requested = admission.mutate(s, sub.kind(), s.name(), requested, null);
    MapValue answer = create.create(s.request().user(), s.namespace(), s.name(), requested,
        o -> admission.validate(s, sub.kind(), s.name(), o, null));
    return new ApiResponse(201, answer, s.warnings().list());
  }
}
