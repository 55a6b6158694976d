/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * The forms an object takes on its way through the server: the shape kube's Go structs give a
 * built-in object, the zero object a create starts from, and the conversions between the
 * endpoint's version and the storage version.
 */
final class StorageForm {
  private StorageForm() {}

  /** {@code obj} in the shape kube's Go structs give built-in objects (see {@link io.apiserver4j.apimachinery.decoding.TypedShape}). */
  static MapValue typed(Schema schema, String typeName, MapValue obj) {
    return BuiltinSchema.release(schema).map(r -> r.shape.normalize(typeName, obj)).orElse(obj);
  }

  static MapValue typed(ResourceDefinition def, MapValue obj) {
    return def.customResource() ? obj : typed(def.schema(), def.schemaType(), obj);
  }

  /** The object a create starts from: kube's zero value of the kind. */
  static MapValue zeroObject(ResourceDefinition def) {
    return typed(def, withTypeMeta(MapValue.empty(), def.kind()));
  }

  static MapValue withTypeMeta(MapValue obj, GroupVersionKind gvk) {
    MapValue r = obj;
    if (!Meta.string(r, "apiVersion").equals(gvk.apiVersion())) {
      r = r.with("apiVersion", Value.of(gvk.apiVersion()));
    }
    if (!Meta.string(r, "kind").equals(gvk.kind())) {
      r = r.with("kind", Value.of(gvk.kind()));
    }
    return r;
  }

  /** The object as stored: at the storage version. */
  static MapValue toStorage(ResourceDefinition def, MapValue obj) {
    if (!def.customResource() || def.storageVersion().equals(def.kind().version())) {
      return obj;
    }
    return def.strategy().converter().convert(obj,
        new GroupVersionKind(def.kind().group(), def.storageVersion(), "").apiVersion());
  }

  /**
   * Whether the endpoint serves its stored objects unchanged ({@link #fromStorage} is the
   * identity), so that they can be written from their stored bytes: built-in kinds, whose
   * versions are stored apart, unless their strategy defaults them on read ({@link
   * io.apiserver4j.apiserver.ResourceStrategy#defaultOnRead()}). Custom resources are not: kube
   * converts, prunes and defaults them on every read (a default added to the schema later shows
   * on objects stored before it).
   */
  static boolean servedAsStored(ResourceDefinition def) {
    return !def.customResource() && !def.strategy().defaultOnRead();
  }

  /**
   * A stored object as the endpoint serves it: at the endpoint's version. Built-in kinds that
   * default on read are defaulted by their strategy; others are served as stored. Custom resources are
   * converted by the CRD's conversion strategy (None: only apiVersion changes; Webhook), pruned by the version's
   * schema and defaulted, as kube-apiserver's CRD storage codec does.
   */
  static MapValue fromStorage(ResourceDefinition def, MapValue stored) {
    if (servedAsStored(def)) {
      return stored;
    }
    if (!def.customResource()) {
      // kube's storage codec defaults every built-in object it decodes
      return def.strategy().defaulter().apply(stored);
    }
    String want = def.kind().apiVersion();
    MapValue served = stored;
    if (!Meta.string(stored, "apiVersion").equals(want)) {
      served = SchemaChecker.check(def.schema(), def.schemaType(),
          def.strategy().converter().convert(stored, want)).object();
    }
    // kube defaults custom resources when it reads them: a default added to the schema later
    // shows on objects stored before it (the same instance when there is nothing to default)
    return def.strategy().defaulter().apply(served);
  }

  /**
   * Stored objects as the endpoint serves them, converted together as one list of the
   * endpoint's list kind (kube converts a list answer as a whole: one ConversionReview for a
   * webhook), then pruned and defaulted one by one as {@link #fromStorage(ResourceDefinition,
   * MapValue)} does.
   */
  static List<MapValue> fromStorage(ResourceDefinition def, List<MapValue> stored) {
    if (servedAsStored(def)) {
      return stored;
    }
    if (!def.customResource()) {
      List<MapValue> out = new ArrayList<>(stored.size());
      stored.forEach(o -> out.add(def.strategy().defaulter().apply(o)));
      return out;
    }
    String want = def.kind().apiVersion();
    ListValue.Builder items = ListValue.builder(stored.size());
    stored.forEach(items::add);
    MapValue list = MapValue.ofEntries("apiVersion", Value.of(want),
        "kind", Value.of(def.listKind()), "items", items.build());
    List<Value> converted = Nested.list(def.strategy().converter().convertList(list, want),
        "items");
    List<MapValue> out = new ArrayList<>(stored.size());
    for (int i = 0; i < stored.size(); i++) {
      MapValue served = (MapValue) converted.get(i);
      if (!Meta.string(stored.get(i), "apiVersion").equals(want)) {
        served = SchemaChecker.check(def.schema(), def.schemaType(), served).object();
      }
      out.add(def.strategy().defaulter().apply(served));
    }
    return out;
  }
}
