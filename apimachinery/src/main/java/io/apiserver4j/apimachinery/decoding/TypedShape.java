/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an object of a built-in kind looks like after kube-apiserver decoded it into its Go
 * structs and encoded it again: fields that Go always writes are present even when the client
 * left them out (non-pointer structs as {@code {}}, {@code metav1.Time} as {@code null}, fields
 * without {@code omitempty} as {@code ""}, {@code 0} or {@code null}), and a {@code null} struct
 * is an empty one. This matters beyond cosmetics: kube-apiserver's managed-fields manager and
 * every response see objects in this shape. The zero values are generated
 * ({@code io.apiserver4j.kubeapi.KubeSchema#zeros}). Idempotent and thread-safe.
 */
public final class TypedShape {
  private final Schema schema;
  private final Map<String, Map<String, Value>> zeros;
  private final ConcurrentHashMap<TypeRef, Optional<Atom>> atoms = new ConcurrentHashMap<>();

  /**
   * Shapes over a schema and the Go zero values of its struct fields.
   *
   * @param schema the SMD schema
   * @param zeros by type name, the zero value of each field Go always writes
   */
  public TypedShape(Schema schema, Map<String, Map<String, Value>> zeros) {
    this.schema = schema;
    this.zeros = zeros;
  }

  /**
   * {@code object} in the shape of type {@code typeName}.
   *
   * @param typeName the OpenAPI type name
   * @param object the object
   * @return the normalized object
   */
  public MapValue normalize(String typeName, MapValue object) {
    Value out = walk(object, TypeRef.named(typeName));
    return out instanceof MapValue m ? m : object;
  }

  private Optional<Atom> atom(TypeRef ref) {
    // a plain read first: computeIfAbsent locks the bin even when the type is cached
    Optional<Atom> a = atoms.get(ref);
    return a != null ? a : atoms.computeIfAbsent(ref, schema::resolve);
  }

  private Value walk(Value v, TypeRef ref) {
    Optional<Atom> atom = atom(ref);
    if (atom.isEmpty()) {
      return v;
    }
    if (v instanceof MapValue m && atom.get().map().isPresent()) {
      return walkMap(m, atom.get().map().get(), ref.namedType().map(zeros::get).orElse(null));
    }
    if (v instanceof ListValue l && atom.get().list().isPresent()) {
      TypeRef element = atom.get().list().get().elementType();
      return l.map((i, item) -> walk(item, element));
    }
    return v;
  }

  private Value walkMap(MapValue m, MapType type, Map<String, Value> typeZeros) {
    MapValue out = m;
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      Value value = m.valueAt(i);
      Optional<StructField> f = type.findField(key);
      TypeRef childType = f.map(StructField::type)
          .orElse(type.elementType().isNone() ? null : type.elementType());
      if (childType == null) {
        continue;
      }
      Value shaped;
      Value zero = typeZeros == null ? null : typeZeros.get(key);
      if (value.isNull() && zero != null) {
        shaped = zero instanceof MapValue ? walk(MapValue.empty(), childType) : zero;
      } else {
        shaped = walk(value, childType);
      }
      if (shaped != value) {
        out = out.with(key, shaped);
      }
    }
    if (typeZeros != null) {
      for (Map.Entry<String, Value> z : typeZeros.entrySet()) {
        if (out.containsKey(z.getKey())) {
          continue;
        }
        Value zero = z.getValue();
        if (zero instanceof MapValue) {
          TypeRef childType = type.findField(z.getKey()).map(StructField::type).orElse(null);
          zero = childType == null ? zero : walk(MapValue.empty(), childType);
        }
        out = out.with(z.getKey(), zero);
      }
    }
    return out;
  }
}
