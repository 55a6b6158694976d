/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.TypeRef;
import java.util.Optional;

/**
 * A built-in kind's schema (structured-merge-diff form) seen as a {@link CelObjectType}, so that
 * policy expressions selecting fields the kind does not have are found when the policy is
 * written (its status' type checking), as kube checks against the kind's OpenAPI schema.
 * Immutable.
 */
record SchemaCelType(Schema schema, TypeRef ref) implements CelObjectType {

  private Optional<Atom> atom() {
    return schema.resolve(ref);
  }

  @Override
  public Optional<CelObjectType> field(String name) {
    Optional<MapType> map = atom().flatMap(Atom::map);
    if (map.isEmpty()) {
      return Optional.of(CelObjectType.dynamic());
    }
    if (map.get().fields().isEmpty()) {
      return Optional.of(new SchemaCelType(schema, map.get().elementType()));
    }
    return map.get().findField(name).map(f -> new SchemaCelType(schema, f.type()));
  }

  @Override
  public boolean open() {
    // only structs (maps with declared fields) restrict selections
    return atom().flatMap(Atom::map).map(m -> m.fields().isEmpty()).orElse(true);
  }

  @Override
  public Optional<CelObjectType> element() {
    Optional<Atom> a = atom();
    if (a.isEmpty()) {
      return Optional.empty();
    }
    if (a.get().list().isPresent()) {
      return Optional.of(new SchemaCelType(schema, a.get().list().get().elementType()));
    }
    return a.get().map().filter(m -> m.fields().isEmpty())
        .map(m -> new SchemaCelType(schema, m.elementType()));
  }
}
