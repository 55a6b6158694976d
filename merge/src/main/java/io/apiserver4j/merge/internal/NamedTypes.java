/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.Value;
import io.apiserver4j.merge.SchemaException;
import io.apiserver4j.merge.TypeDef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * The named types of one schema, by name and in definition order, either all given at once or
 * each decoded from its SMD document on first use. A schema of hundreds of types of which a
 * server touches a few dozen (the built-in kinds' in a test) then decodes only those.
 *
 * <p>Thread-safe: a lazy type is decoded once (under this table's lock), and a decoded type is
 * read without locking afterwards.
 */
public final class NamedTypes {
  private final List<String> names;
  private final Map<String, Integer> index;
  private final AtomicReferenceArray<TypeDef> defs;
  // null once every type is decoded (always for eager tables)
  private volatile Function<String, Value> documents;
  private volatile List<TypeDef> all;

  private NamedTypes(List<String> names, Function<String, Value> documents) {
    this.names = Collections.unmodifiableList(new ArrayList<>(names));
    Map<String, Integer> m = new HashMap<>(names.size() * 2);
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name == null || name.isEmpty()) {
        throw new SchemaException("types[" + i + "]: type definition has no name");
      }
      if (m.put(name, i) != null) {
        throw new SchemaException("duplicate type name \"" + name + "\"");
      }
    }
    this.index = m;
    this.defs = new AtomicReferenceArray<>(names.size());
    this.documents = documents;
  }

  /**
   * The table of {@code types}, decoded already.
   *
   * @throws SchemaException when a name is repeated
   */
  public static NamedTypes of(List<TypeDef> types) {
    List<String> names = new ArrayList<>(types.size());
    for (TypeDef t : types) {
      names.add(t.name());
    }
    NamedTypes n = new NamedTypes(names, null);
    for (int i = 0; i < types.size(); i++) {
      n.defs.set(i, types.get(i));
    }
    n.all = n.names.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(types));
    return n;
  }

  /**
   * The table of the types called {@code names}, each decoded from {@code documents.apply(name)}
   * (its SMD type definition, {@code {name: ..., map: ...}}) when first asked for.
   *
   * @throws SchemaException when a name is empty or repeated
   */
  public static NamedTypes lazy(List<String> names, Function<String, Value> documents) {
    return new NamedTypes(names, documents);
  }

  /** The names, in definition order. */
  public List<String> names() {
    return names;
  }

  /** Whether a type is called {@code name}, without decoding it. */
  public boolean contains(String name) {
    return index.containsKey(name);
  }

  /**
   * The type called {@code name}, decoded if it was not yet; null when there is none.
   *
   * @throws SchemaException when its document is not a valid SMD type definition of that name
   */
  public TypeDef get(String name) {
    Integer i = index.get(name);
    return i == null ? null : get(i);
  }

  private TypeDef get(int i) {
    TypeDef t = defs.get(i);
    if (t != null) {
      return t;
    }
    synchronized (this) {
      t = defs.get(i);
      if (t == null) {
        t = decode(i);
        defs.set(i, t);
      }
      return t;
    }
  }

  private TypeDef decode(int i) {
    String name = names.get(i);
    Value document;
    try {
      document = documents.apply(name);
    } catch (RuntimeException e) {
      throw new SchemaException("types[" + i + "] \"" + name + "\": cannot read its definition: "
          + e.getMessage());
    }
    TypeDef t = SmdSchemaCodec.readType(document, i);
    if (!t.name().equals(name)) {
      throw new SchemaException("types[" + i + "] \"" + name + "\": the definition found is of \""
          + t.name() + "\"");
    }
    return t;
  }

  /**
   * Every type in definition order, decoding those not decoded yet.
   *
   * @throws SchemaException when a document is not a valid SMD type definition
   */
  public List<TypeDef> all() {
    List<TypeDef> a = all;
    if (a == null) {
      List<TypeDef> out = new ArrayList<>(names.size());
      for (int i = 0; i < names.size(); i++) {
        out.add(get(i));
      }
      a = Collections.unmodifiableList(out);
      all = a;
      documents = null;
    }
    return a;
  }
}
