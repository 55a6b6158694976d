/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.ScalarType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What kube-apiserver's decoding does with a body that does not fit the kind's schema: fields
 * the schema does not declare are dropped (Go structs have nowhere to put them; custom
 * resources are pruned) and reported as {@code unknown field "<path>"} for
 * {@code fieldValidation=Strict|Warn}; values of the wrong JSON type are errors. Paths are
 * written as kube writes them: {@code spec.template.spec.containers[0].foo}.
 *
 * <p>Thread-safe; resolved types are cached per schema.
 */
public final class SchemaChecker {
  // Resolved types per schema, bounded: CRD versions come and go for the life of the JVM, so
  // past SCHEMAS schemas the caches start again (lock-free reads on the request path).
  private static final int SCHEMAS = 256;
  private static final ConcurrentHashMap<Schema, ConcurrentHashMap<TypeRef, Atom>> CACHE =
      new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<Schema, ConcurrentHashMap<TypeRef, Boolean>> ANYTHING =
      new ConcurrentHashMap<>();

  /** The checked object and what was found. */
  public record Result(MapValue object, List<String> unknownFields, List<String> typeErrors) {}

  private final Schema schema;
  private final ConcurrentHashMap<TypeRef, Atom> atoms;
  private final ConcurrentHashMap<TypeRef, Boolean> anything;
  private final List<String> unknown = new ArrayList<>();
  private final List<String> typeErrors = new ArrayList<>();

  private SchemaChecker(Schema schema) {
    this.schema = schema;
    this.atoms = bounded(CACHE, schema);
    this.anything = bounded(ANYTHING, schema);
  }

  private static <V> ConcurrentHashMap<TypeRef, V> bounded(
      ConcurrentHashMap<Schema, ConcurrentHashMap<TypeRef, V>> cache, Schema schema) {
    ConcurrentHashMap<TypeRef, V> found = cache.get(schema);
    if (found != null) {
      return found;
    }
    if (cache.size() >= SCHEMAS) {
      cache.clear();
    }
    return cache.computeIfAbsent(schema, s -> new ConcurrentHashMap<>());
  }

  /** Checks {@code object} against type {@code typeName} of {@code schema}. */
  public static Result check(Schema schema, String typeName, MapValue object) {
    SchemaChecker c = new SchemaChecker(schema);
    Value out = c.walk(object, TypeRef.named(typeName), "");
    return new Result(out instanceof MapValue m ? m : object, List.copyOf(c.unknown),
        List.copyOf(c.typeErrors));
  }

  private Atom atom(TypeRef ref) {
    Atom a = atoms.get(ref);
    if (a == null) {
      a = schema.resolve(ref).orElse(null);
      if (a == null) {
        return null;
      }
      atoms.put(ref, a);
    }
    return a;
  }

  private Value walk(Value v, TypeRef ref, String path) {
    if (v.isNull()) {
      return v;
    }
    Atom atom = atom(ref);
    if (atom == null || acceptsAnything(ref)) {
      // nothing to report below (schemaless, int-or-string): values of any depth pass unwalked
      return v;
    }
    if (v instanceof MapValue m) {
      Optional<MapType> mt = atom.map();
      if (mt.isEmpty()) {
        typeError(path, atom, v);
        return v;
      }
      return walkMap(m, mt.get(), path);
    }
    if (v instanceof ListValue l) {
      if (atom.list().isEmpty()) {
        typeError(path, atom, v);
        return v;
      }
      TypeRef element = atom.list().get().elementType();
      return l.map((i, item) -> walk(item, element, path + "[" + i + "]"));
    }
    Optional<ScalarType> scalar = atom.scalar();
    if (scalar.isEmpty() || !fits(scalar.get(), v)) {
      typeError(path, atom, v);
    }
    return v;
  }

  /**
   * Whether every value fits {@code ref} with nothing unknown below it: an untyped scalar that
   * may also be a list or a map of values that fit anything. Cached per schema.
   */
  private boolean acceptsAnything(TypeRef ref) {
    Boolean known = anything.get(ref);
    return known != null ? known : acceptsAnything(ref, new java.util.HashSet<>());
  }

  private boolean acceptsAnything(TypeRef ref, java.util.Set<TypeRef> visiting) {
    Boolean known = anything.get(ref);
    if (known != null) {
      return known;
    }
    if (!visiting.add(ref)) {
      return true; // a recursive type accepts anything if the rest of it does
    }
    Atom a = atom(ref);
    boolean result = a != null && a.scalar().isPresent()
        && a.scalar().get().equals(ScalarType.UNTYPED)
        && a.list().isPresent() && a.map().isPresent() && a.map().get().fields().isEmpty()
        && !a.map().get().elementType().isNone()
        && acceptsAnything(a.list().get().elementType(), visiting)
        && acceptsAnything(a.map().get().elementType(), visiting);
    visiting.remove(ref);
    if (visiting.isEmpty()) {
      anything.put(ref, result);
    }
    return result;
  }

  private Value walkMap(MapValue m, MapType type, String path) {
    MapValue.Builder b = null;
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      Value value = m.valueAt(i);
      String childPath = path.isEmpty() ? key : path + "." + key;
      Optional<StructField> f = type.findField(key);
      Value checked;
      if (f.isPresent()) {
        checked = walk(value, f.get().type(), childPath);
      } else if (!type.elementType().isNone()) {
        checked = walk(value, type.elementType(), childPath);
      } else {
        unknown.add(childPath);
        checked = null;
      }
      if (checked != value && b == null) {
        b = MapValue.builder(m.size());
        for (int j = 0; j < i; j++) {
          b.put(m.keyAt(j), m.valueAt(j));
        }
      }
      if (b != null && checked != null) {
        b.put(key, checked);
      }
    }
    return b == null ? m : b.build();
  }

  private static boolean fits(ScalarType type, Value v) {
    if (type.equals(ScalarType.UNTYPED) || !type.isKnown()) {
      return !(v instanceof MapValue) && !(v instanceof ListValue);
    }
    if (type.equals(ScalarType.STRING)) {
      return v instanceof StringValue;
    }
    if (type.equals(ScalarType.NUMERIC)) {
      return v instanceof IntegerValue || v instanceof FloatValue;
    }
    if (type.equals(ScalarType.BOOLEAN)) {
      return v instanceof BooleanValue;
    }
    return true;
  }

  private void typeError(String path, Atom atom, Value v) {
    String expected;
    if (atom.scalar().isPresent()) {
      ScalarType s = atom.scalar().get();
      expected = s.equals(ScalarType.NUMERIC) ? "number" : s.smdName();
    } else if (atom.list().isPresent()) {
      expected = "array";
    } else if (atom.map().isPresent()) {
      expected = "object";
    } else {
      expected = "nothing";
    }
    typeErrors.add((path.isEmpty() ? "<root>" : path) + ": expected " + expected + ", got "
        // one word for numbers, whole or not: the checker does not tell them apart
        + (v.kind() == Value.Kind.INTEGER ? "number" : v.kind().schemaType()));
  }
}
