/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.CreateCall;
import io.apiserver4j.apiserver.SubresourceCreate;
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

  private final java.util.function.Function<io.apiserver4j.apiserver.ApiRequest, ApiResponse>
      loopback;
  private final Registry registry;

  CreateHandler(Bodies bodies, FieldManagers fieldManagers, AdmissionStage admission,
      GuaranteedWrite write,
      java.util.function.Function<io.apiserver4j.apiserver.ApiRequest, ApiResponse> loopback,
      Registry registry) {
    this.loopback = loopback;
    this.registry = registry;
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
    if (def.strategy().subresourceCreate("").isPresent()) {
      return answer(s, run(s, def.strategy().subresourceCreate("").get(), def.kind(),
          Meta.metaString(requested, "name"), requested));
    }
    String name = Meta.metaString(requested, "name");
    MapValue obj = ObjectMetaRules.wipeSystemFields(requested);
    obj = ObjectMetaRules.ensureNamespace(obj, s.objectNamespace());
    obj = ObjectMetaRules.dedupOwnerReferences(s, obj, false);
    obj = fieldManagers.of(def, "").updateNoErrors(StorageForm.zeroObject(def), obj, s.manager(),
        s.now());
    obj = admission.mutate(s, def.kind(), name, obj, null);
    obj = ObjectMetaRules.dedupOwnerReferences(s, obj, true);
    MapValue created = write.create(s, obj).object();
    return new ApiResponse(201, s.storage().createdResponse().apply(requested, created),
        s.warnings().list());
  }

  /** kube's create handler over a {@code NamedCreater}: the body is the subresource's kind. */
  private ApiResponse createSubresource(Scope s, ResourceDefinition def) {
    SubresourceCreate create = def.strategy().subresourceCreate(s.subresource())
        .orElseThrow(Endpoints::methodNotAllowed);
    ResourceDefinition.Subresource sub = def.discoverySubresources().stream()
        .filter(d -> d.name().equals(s.subresource())).findFirst()
        .orElseThrow(() -> new IllegalStateException("no kind for " + def.groupResource() + "/"
            + s.subresource()));
    String schemaType = BuiltinSchema.subresourceSchemaType(def.resource(), s.subresource())
        .orElseThrow(() -> new IllegalStateException("no schema for " + def.groupResource()
            + "/" + s.subresource()));
    MapValue requested = bodies.decodeObject(s, sub.kind(), create.acceptedApiVersions(),
        def.schema(), schemaType, o -> o);
    return answer(s, run(s, create, sub.kind(), s.name(), requested));
  }

  private MapValue run(Scope s, SubresourceCreate create,
      io.apiserver4j.core.GroupVersionKind kind, String name, MapValue requested) {
    MapValue mutated = admission.mutate(s, kind, name, requested, null);
    return create.create(new CreateCall(s.request().user(), s.namespace(), name,
        mutated, o -> admission.validate(s, kind, name, o, null), s.request().dryRun(), s.now(),
        loopback, (resource, objectName, uid, rv, change) -> storageUpdate(s, resource,
            objectName, uid, rv, change)));
  }

  private MapValue storageUpdate(Scope s, io.apiserver4j.core.GroupVersionResource resource,
      String name, Optional<String> uid, Optional<String> rv,
      java.util.function.UnaryOperator<MapValue> change) {
    ResourceDefinition target = registry.find(resource).orElseThrow(Endpoints::resourceNotFound);
    io.apiserver4j.storage.ObjectKey key = new io.apiserver4j.storage.ObjectKey(
        target.kind().group(), target.plural(), target.namespaced() ? s.namespace() : "", name);
    io.apiserver4j.storage.Preconditions preconditions = new io.apiserver4j.storage.Preconditions(
        uid, rv);
    io.apiserver4j.storage.StoredObject written;
    try {
      written = s.store().guaranteedUpdate(key, preconditions, stored -> StorageForm.toStorage(
          target, change.apply(StorageForm.fromStorage(target, stored))));
    } catch (io.apiserver4j.core.errors.NotFoundException e) {
      if (s.store().get(key).isEmpty()) {
        throw io.apiserver4j.core.errors.StatusErrors.notFound(target.groupResource(), name);
      }
      throw e;
    }
    MapValue object = StorageForm.fromStorage(target, written.object());
    s.storage().listener().committedQuietly(target, new WriteOutcome.Updated(object));
    return object;
  }

  /**
   * 201 with the answer; a {@code Status} answer keeps its code, and one that is not a success
   * is answered as the error it is (kube's create handler and request finisher).
   */
  private static ApiResponse answer(Scope s, MapValue answer) {
    if ("Status".equals(Meta.string(answer, "kind"))
        && "v1".equals(Meta.string(answer, "apiVersion"))) {
      io.apiserver4j.core.errors.Status status = io.apiserver4j.core.errors.Status.fromValue(answer);
      if (status.outcome() != io.apiserver4j.core.errors.Status.Outcome.SUCCESS) {
        return ApiResponse.of(status, s.warnings().list());
      }
      if (status.code() == 0) {
        answer = answer.with("code", io.apiserver4j.core.Value.of(201L));
      }
      return new ApiResponse(201, answer, s.warnings().list());
    }
    return new ApiResponse(201, answer, s.warnings().list());
  }
}
