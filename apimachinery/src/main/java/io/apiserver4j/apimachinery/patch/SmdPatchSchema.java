/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.apimachinery.patch.PatchField;
import io.apiserver4j.apimachinery.patch.PatchSchema;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link PatchSchema} over an SMD schema plus the strategic merge patch tags of its fields
 * (from the schema notation): the navigation follows the SMD types, the strategies come from
 * the tags, and untagged fields have the default strategy. Thread-safe; nodes are created
 * lazily and cached.
 */
public final class SmdPatchSchema implements PatchSchema {
  private final Schema schema;
  private final TypeRef ref;
  private final Map<String, Map<String, String>> tags;
  private final ConcurrentHashMap<TypeRef, SmdPatchSchema> nodes;
  private final ConcurrentHashMap<String, PatchField> fields = new ConcurrentHashMap<>();
  private volatile Atom atom;

  private SmdPatchSchema(Schema schema, TypeRef ref, Map<String, Map<String, String>> tags,
      ConcurrentHashMap<TypeRef, SmdPatchSchema> nodes) {
    this.schema = schema;
    this.ref = ref;
    this.tags = tags;
    this.nodes = nodes;
  }

  /**
   * The patch schema of type {@code typeName} of {@code schema}.
   *
   * @param schema the SMD schema
   * @param typeName the type name
   * @param tags by type name and field, the Go {@code patchStrategy}/{@code patchMergeKey} tags
   * @return the patch schema
   */
  public static PatchSchema of(Schema schema, String typeName,
      Map<String, Map<String, String>> tags) {
    ConcurrentHashMap<TypeRef, SmdPatchSchema> nodes = new ConcurrentHashMap<>();
    return node(schema, TypeRef.named(typeName), tags, nodes);
  }

  private static SmdPatchSchema node(Schema schema, TypeRef ref,
      Map<String, Map<String, String>> tags, ConcurrentHashMap<TypeRef, SmdPatchSchema> nodes) {
    return nodes.computeIfAbsent(ref, r -> new SmdPatchSchema(schema, r, tags, nodes));
  }

  private Atom atom() {
    Atom a = atom;
    if (a == null) {
      a = schema.resolve(ref).orElse(Atom.empty());
      atom = a;
    }
    return a;
  }

  @Override
  public PatchField field(String name) {
    PatchField f = fields.get(name);
    if (f == null) {
      f = computeField(name);
      fields.put(name, f);
    }
    return f;
  }

  private PatchField computeField(String name) {
    Optional<MapType> map = atom().map();
    if (map.isEmpty()) {
      return PatchField.unknown();
    }
    TypeRef childRef;
    Optional<StructField> declared = map.get().findField(name);
    if (declared.isPresent()) {
      childRef = declared.get().type();
    } else if (!map.get().elementType().isNone()) {
      childRef = map.get().elementType();
    } else {
      return PatchField.unknown();
    }
    PatchSchema child = node(schema, childRef, tags, nodes);
    String tag = ref.namedType().map(tags::get).map(t -> t.get(name)).orElse(null);
    if (tag == null || !declared.isPresent()) {
      return PatchField.of(child);
    }
    int slash = tag.indexOf('/');
    String strategies = slash < 0 ? tag : tag.substring(0, slash);
    Optional<String> key = slash < 0 ? Optional.empty() : Optional.of(tag.substring(slash + 1));
    return PatchField.parse(strategies, key, child);
  }

  @Override
  public PatchSchema items() {
    return atom().list().<PatchSchema>map(l -> node(schema, l.elementType(), tags, nodes))
        .orElse(PatchSchema.unknown());
  }
}
