/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.ElementRelationship;
import io.apiserver4j.merge.ListType;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.TypeDef;
import io.apiserver4j.merge.TypeRef;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resolution cache of one schema: one {@link TypeNode} per named type (and per named type
 * with an element-relationship override), built on first use.
 */
public final class CompiledSchema {
  static final String UNTYPED_DEDUCED = "__untyped_deduced_";

  private final NamedTypes defs;
  private final ConcurrentHashMap<String, TypeNode> named = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<TypeRef, TypeNode> overridden = new ConcurrentHashMap<>();

  public CompiledSchema(NamedTypes types) {
    this.defs = types;
  }

  /**
   * Resolves a reference. An unknown name or an override that does not fit the type gives a
   * node whose {@link TypeNode#unresolved} explains the problem, reported by walkers at the path
   * where the type is used (as SMD does); only a lazily decoded type whose definition is invalid
   * throws, a {@link io.apiserver4j.merge.SchemaException} naming it.
   */
  public TypeNode resolve(TypeRef ref) {
    if (ref.elementRelationship().isEmpty()) {
      String name = ref.namedType().orElse(null);
      if (name == null) {
        return build("inlined", ref.inlined(), null);
      }
      TypeNode n = named.get(name);
      if (n == null) {
        n = buildNamed(name, null);
        TypeNode prev = named.putIfAbsent(name, n);
        if (prev != null) {
          n = prev;
        }
      }
      return n;
    }
    TypeNode n = overridden.get(ref);
    if (n == null) {
      ElementRelationship override = ref.elementRelationship().get();
      n = ref.namedType().isPresent()
          ? buildNamed(ref.namedType().get(), override)
          : build("inlined", ref.inlined(), override);
      TypeNode prev = overridden.putIfAbsent(ref, n);
      if (prev != null) {
        n = prev;
      }
    }
    return n;
  }

  private TypeNode buildNamed(String name, ElementRelationship override) {
    TypeDef def = defs.get(name);
    String description = "named type: " + name;
    if (def == null) {
      return TypeNode.unresolved(description, "schema error: no type found matching: " + name);
    }
    return build(description, def.atom(), override);
  }

  private TypeNode build(String description, Atom atom, ElementRelationship override) {
    MapType map = atom.map().orElse(null);
    ListType list = atom.list().orElse(null);
    ElementRelationship mapRel = map == null ? null : map.elementRelationship();
    ElementRelationship listRel = list == null ? null : list.elementRelationship();
    if (override != null) {
      // Like SMD, an override applies to the map member if there is one, else to the list.
      if (map != null) {
        mapRel = override;
      } else if (list != null) {
        if (override == ElementRelationship.SEPARABLE) {
          return TypeNode.unresolved(description, "schema error: elementRelationship override "
              + "\"separable\" does not apply to the list of " + description);
        }
        listRel = override;
      } else {
        return TypeNode.unresolved(description, "schema error: no type found matching: "
            + description + " (elementRelationship override on a type that is neither map nor list)");
      }
    }
    return new TypeNode(
        description,
        atom.scalar().orElse(null),
        list == null ? null : new ListNode(this, list.elementType(), listRel, list.keys()),
        map == null ? null : new MapNode(this, map, mapRel));
  }
}
