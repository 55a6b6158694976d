/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.strategy.Defaulter;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.managedfields.FieldManager;
import io.apiserver4j.apimachinery.managedfields.ManagedFieldsCache;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.merge.ConversionException;
import io.apiserver4j.merge.MissingVersionException;
import io.apiserver4j.merge.Updater;
import io.apiserver4j.merge.VersionConverter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import io.apiserver4j.apimachinery.patch.SmdPatchSchema;

/**
 * The managed-fields manager and the strategic-merge-patch schema of every endpoint, built on
 * first use and dropped when the registry changes the definition they were derived from.
 */
final class FieldManagers {
  private final Registry registry;
  private final Map<String, FieldManager> managers = new ConcurrentHashMap<>();
  // one cache of decoded managedFields for all endpoints: a status write decodes what the main
  // resource's manager encoded
  private final ManagedFieldsCache decoded = ManagedFieldsCache.ofSize(256);
  private final Map<String, PatchSchema> patchSchemas = new ConcurrentHashMap<>();

  FieldManagers(Registry registry) {
    this.registry = registry;
    registry.addListener((change, def) -> {
      managers.keySet().removeIf(k -> k.startsWith(def.resource() + "|"));
      patchSchemas.remove(def.resource().toString());
    });
  }

  /** The manager of an endpoint: a definition, or its status / scale. */
  FieldManager of(ResourceDefinition def, String subresource) {
    return managers.computeIfAbsent(def.resource() + "|" + subresource,
        k -> subresource.equals("scale") ? ScaleSupport.newFieldManager(decoded)
            : newFieldManager(def, subresource));
  }

  private FieldManager newFieldManager(ResourceDefinition def, String subresource) {
    Updater.Builder b = Updater.builder().converter(converter(def));
    FieldSet reset = def.strategy().resetFields(subresource, def.hasStatus());
    if (!reset.isEmpty()) {
      b.ignoredFields(def.kind().apiVersion(), reset);
    }
    Defaulter defaulter = def.strategy().defaulter();
    return FieldManager.builder(def.kind(), def.schema().type(def.schemaType()))
        .subresource(subresource)
        .updater(b.build())
        .objectConverter(GoDecoding.applyDecoder(def))
        .objectDefaulter(o -> StorageForm.typed(def, defaulter.apply(o)))
        .emptyObject(StorageForm.zeroObject(def))
        .cache(decoded)
        .build();
  }

  /** Converts objects between the served versions of a group/resource (the CRD's strategy). */
  private VersionConverter converter(ResourceDefinition def) {
    return (object, version) -> {
      if (version.isEmpty()) {
        throw new ConversionException("cannot convert to invalid version: \"\"");
      }
      GroupVersionKind target = GroupVersionKind.of(version, def.kind().kind());
      if (target.equals(def.kind())) {
        return object;
      }
      Optional<ResourceDefinition> other = registry.findByKind(target);
      if (other.isEmpty() || !other.get().groupResource().equals(def.groupResource())) {
        throw new MissingVersionException("version " + version + " of " + def.kind().kind()
            + " is not served");
      }
      MapValue v = object.value() instanceof MapValue m ? m : MapValue.empty();
      ResourceDefinition to = other.get();
      MapValue converted = SchemaChecker.check(to.schema(), to.schemaType(),
          def.strategy().converter().convert(v, version)).object();
      return to.schema().type(to.schemaType()).fromValueUnvalidated(converted);
    };
  }

  /** The strategic merge patch schema of a built-in kind (custom resources have none). */
  PatchSchema patchSchema(ResourceDefinition def) {
    return patchSchemas.computeIfAbsent(def.resource().toString(),
        k -> BuiltinSchema.release(def.schema())
            .map(r -> r.patchSchema(def.schemaType()))
            .orElseGet(() -> SmdPatchSchema.of(def.schema(), def.schemaType(), Map.of())));
  }
}
