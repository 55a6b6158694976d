/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.apimachinery.managedfields.FieldManager;
import io.apiserver4j.apimachinery.managedfields.ManagedFieldsCache;
import io.apiserver4j.apimachinery.managedfields.ScaleHandler;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.dryrun.OptionsKind;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.merge.Force;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * The {@code scale} subresource: an {@code autoscaling/v1 Scale} view of a resource's replicas,
 * read and written through the resource (kube's {@code ScaleREST} with
 * {@code scaleUpdatedObjectInfo}), and kube's {@code ScaleHandler}, which moves the ownership of
 * the replicas field between the resource's managedFields and the Scale's.
 */
final class ScaleSupport {
  static final GroupVersionKind SCALE_GVK = new GroupVersionKind("autoscaling", "v1", "Scale");

  private final Registry registry;
  private final Bodies bodies;
  private final FieldManagers fieldManagers;
  private final AdmissionStage admission;
  private final GuaranteedWrite write;

  ScaleSupport(Registry registry, Bodies bodies, FieldManagers fieldManagers,
      AdmissionStage admission, GuaranteedWrite write) {
    this.registry = registry;
    this.bodies = bodies;
    this.fieldManagers = fieldManagers;
    this.admission = admission;
    this.write = write;
  }

  static FieldManager newFieldManager(ManagedFieldsCache cache) {
    return FieldManager.builder(SCALE_GVK, BuiltinSchema.schema().type(BuiltinSchema.SCALE_TYPE))
        .subresource("scale")
        .objectConverter(m -> GoDecoding.applied(BuiltinSchema.schema(), BuiltinSchema.SCALE_TYPE,
            m))
        .emptyObject(StorageForm.typed(BuiltinSchema.schema(), BuiltinSchema.SCALE_TYPE,
            StorageForm.withTypeMeta(MapValue.empty(), SCALE_GVK)))
        .cache(cache)
        .build();
  }

  /** The Scale of {@code parent}, without managedFields (what GET returns). */
  MapValue scaleOf(ResourceDefinition def, MapValue parent) {
    ScaleSubresource s = def.scale().orElseThrow();
    MapValue.Builder meta = MapValue.builder();
    for (String k : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
      Value v = Meta.metadata(parent).getOrNull(k);
      if (v != null) {
        meta.put(k, v);
      }
    }
    long spec = replicas(parent, s.specReplicasPath());
    long status = replicas(parent, s.statusReplicasPath());
    MapValue.Builder st = MapValue.builder().put("replicas", Value.of(status));
    if (s.labelSelectorPath().isPresent()) {
      Value sel = Nested.getOrNull(parent, Nested.parseDotted(s.labelSelectorPath().get()));
      String selector = sel instanceof MapValue m ? KubeValidation.formatSelector(m)
          : sel instanceof StringValue str ? str.value() : "";
      if (!selector.isEmpty()) {
        st.put("selector", Value.of(selector));
      }
    }
    return MapValue.ofEntries("kind", Value.of("Scale"), "apiVersion",
        Value.of(SCALE_GVK.apiVersion()), "metadata", meta.build(),
        "spec", MapValue.ofEntries("replicas", Value.of(spec)), "status", st.build());
  }

  private static long replicas(MapValue obj, String path) {
    return Nested.getOrNull(obj, Nested.parseDotted(path)) instanceof IntegerValue i ? i.value() : 0;
  }

  private GroupResource scaleResource(ResourceDefinition def) {
    return new GroupResource(def.kind().group(), def.plural() + "/scale");
  }

  /** GET, PUT or PATCH of a resource's {@code scale} subresource. */
  ApiResponse serve(Scope s) {
    return switch (s.request().verb()) {
      case GET -> new ApiResponse(200, scaleOf(s.def(),
          StorageForm.fromStorage(s.def(), ReadHandler.stored(s).object())), s.warnings().list());
      case UPDATE -> update(s);
      case PATCH -> patch(s, PatchHandler.readPatch(s, bodies));
      default -> throw new IllegalStateException("the scale subresource does not serve "
          + s.request().verb());
    };
  }

  /** PUT of a Scale. */
  private ApiResponse update(Scope s) {
    WriteOptionRules.check(s.request(), OptionsKind.UPDATE_OPTIONS, Optional.empty());
    MapValue body = bodies.decodeObject(s, SCALE_GVK, BuiltinSchema.schema(),
        BuiltinSchema.SCALE_TYPE, m -> m);
    MapValue requested = ObjectMetaRules.matchUrl(s, body);
    FieldManager fm = fieldManagers.of(s.def(), "scale");
    return run(s, (oldScale, parent) -> fm.updateNoErrors(oldScale, requested, s.manager(),
        s.now()));
  }

  /** PATCH (any type, apply included) of a Scale. */
  private ApiResponse patch(Scope s, PatchHandler.Patch patch) {
    FieldManager fm = fieldManagers.of(s.def(), "scale");
    return run(s, (oldScale, parent) -> {
      MapValue patched;
      if (patch.type().isApply()) {
        patched = fm.apply(oldScale, (MapValue) patch.body(), s.request().fieldManager(),
            patch.force() ? Force.YES : Force.NO, s.now());
      } else {
        Value v = io.apiserver4j.apimachinery.patch.Patches.apply(patch.type(), oldScale,
            patch.body(), patch.type() == PatchType.STRATEGIC_MERGE_PATCH
                ? BuiltinSchema.patchSchema(BuiltinSchema.SCALE_TYPE) : PatchSchema.unknown());
        if (!(v instanceof MapValue m)) {
          throw StatusErrors.badRequest("the patch does not produce an object");
        }
        patched = fm.updateNoErrors(oldScale, GoDecoding.patched(patch.type(),
            BuiltinSchema.schema(), BuiltinSchema.SCALE_TYPE, m, patch.body(), patch.raw()),
            s.manager(), s.now());
      }
      return ObjectMetaRules.matchUrl(s, patched);
    });
  }

  @FunctionalInterface
  private interface ScaleChange {
    MapValue apply(MapValue oldScale, MapValue parent);
  }

  private ApiResponse run(Scope s, ScaleChange change) {
    ResourceDefinition def = s.def();
    ScaleSubresource sub = def.scale().orElseThrow();
    GuaranteedWrite.Transform transform = parent -> {
      if (parent == null) {
        throw StatusErrors.notFound(scaleResource(def), s.name());
      }
      MapValue oldScale = scaleOf(def, parent);
      ScaleHandler handler = scaleHandler(def);
      oldScale = Meta.withMeta(oldScale, "managedFields", ManagedFields.encode(
          handler.toSubresource(Meta.metaValue(parent, "managedFields"))));
      MapValue newScale = change.apply(oldScale, parent);
      newScale = admission.mutate(s, SCALE_GVK, s.name(), newScale, oldScale);
      Value replicas = Nested.getOrNull(newScale, "spec", "replicas");
      if (replicas instanceof IntegerValue r && r.value() < 0) {
        throw StatusErrors.invalid(new GroupKind("autoscaling", "Scale"), s.name(),
            List.of(FieldError.invalid("spec.replicas", r, "must be greater than or equal to 0")));
      }
      String uid = Meta.metaString(newScale, "uid");
      if (!uid.isEmpty() && !uid.equals(Meta.metaString(parent, "uid"))) {
        throw StatusErrors.conflict(scaleResource(def), s.name(), "Precondition failed: UID in"
            + " precondition: " + uid + ", UID in object meta: " + Meta.metaString(parent, "uid"));
      }
      MapValue updated = Nested.set(parent, replicas == null ? Value.of(0L) : replicas,
          Nested.parseDotted(sub.specReplicasPath()));
      // kube's scaleUpdatedObjectInfo: a Scale's resourceVersion is a precondition; without
      // one the update is unconditional, for built-in and custom resources alike
      String rv = Meta.metaString(newScale, "resourceVersion");
      if (!rv.isEmpty()) {
        updated = Meta.withMetaString(updated, "resourceVersion", rv);
      }
      return ManagedFields.withManagedFields(updated, handler.toParent(
          Meta.metaValue(parent, "managedFields"), Meta.metaValue(newScale, "managedFields")));
    };
    WriteOutcome out = write.update(s, transform, false, Optional.empty(),
        new GuaranteedWrite.AdmissionView(SCALE_GVK, parent -> scaleOf(def, parent)));
    return new ApiResponse(200, scaleOf(def, out.object()), s.warnings().list());
  }

  // --- managed fields between parent and Scale -----------------------------------------------

  private ScaleHandler scaleHandler(ResourceDefinition def) {
    return new ScaleHandler(def.kind().apiVersion(), mappings(def));
  }

  private Map<String, FieldPath> mappings(ResourceDefinition def) {
    Map<String, FieldPath> m = new HashMap<>();
    for (ResourceDefinition d : registry.versionsOf(def.groupResource())) {
      d.scale().ifPresent(sc -> m.put(d.kind().apiVersion(), path(sc.specReplicasPath())));
    }
    def.scale().ifPresent(sc -> m.put(def.kind().apiVersion(), path(sc.specReplicasPath())));
    return m;
  }

  private static FieldPath path(String dotted) {
    String[] parts = Nested.parseDotted(dotted);
    FieldName[] names = new FieldName[parts.length];
    for (int i = 0; i < parts.length; i++) {
      names[i] = new FieldName(parts[i]);
    }
    return FieldPath.of(names);
  }
}
