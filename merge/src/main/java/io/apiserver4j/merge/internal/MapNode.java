/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.merge.ElementRelationship;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.HashMap;
import java.util.List;

/** A resolved map or struct type. */
public final class MapNode {
  public final boolean atomic;
  /** True when the map declares no fields at all (SMD's {@code Fields == nil}). */
  public final boolean noFields;
  /** True when undeclared keys are allowed (the element type is not {@link TypeRef#none()}). */
  public final boolean hasElementType;
  /** True when the element type is SMD's untyped deduced type (reconciliation skips these). */
  public final boolean untypedDeducedElement;
  private final HashMap<String, Field> fields;
  private final TypeRef elementRef;
  private final CompiledSchema schema;
  private final MapType type;
  private TypeNode element;

  MapNode(CompiledSchema schema, MapType type, ElementRelationship relationship) {
    this.schema = schema;
    this.type = type;
    this.atomic = relationship == ElementRelationship.ATOMIC;
    List<StructField> fs = type.fields();
    this.noFields = fs.isEmpty();
    this.fields = new HashMap<>(Math.max(4, fs.size() * 2));
    for (StructField f : fs) {
      fields.put(f.name(), new Field(schema, f));
    }
    this.elementRef = type.elementType();
    this.hasElementType = !elementRef.isNone();
    this.untypedDeducedElement = isUntypedDeducedRef(elementRef);
  }

  private static boolean isUntypedDeducedRef(TypeRef ref) {
    if (ref.namedType().isPresent()) {
      return ref.namedType().get().equals(CompiledSchema.UNTYPED_DEDUCED);
    }
    return ref.inlined().scalar().map(io.apiserver4j.merge.ScalarType.UNTYPED::equals).orElse(false);
  }

  /** The declared field {@code name}, or null. */
  public Field field(String name) {
    // maps of data (labels, fieldsV1, ...) declare nothing: their keys, often fresh strings,
    // need not be hashed to learn that
    return noFields ? null : fields.get(name);
  }

  StructField declaredField(String name) {
    Field f = field(name);
    return f == null ? null : f.field;
  }

  /** The element type for undeclared keys (only meaningful when {@link #hasElementType}). */
  public TypeNode element() {
    TypeNode e = element;
    if (e == null) {
      e = schema.resolve(elementRef);
      element = e;
    }
    return e;
  }

  /**
   * The type of the value under {@code key}: the declared field's type, else the element type;
   * the element type node (an empty atom) when undeclared keys are not allowed.
   */
  public TypeNode typeOf(String key) {
    Field f = field(key);
    return f != null ? f.type() : element();
  }

  public MapType type() {
    return type;
  }

  /** A declared struct field with its lazily resolved type. */
  public static final class Field {
    final StructField field;
    /** The path element of this field, shared by every field set that mentions it. */
    public final FieldName pe;
    private final CompiledSchema schema;
    private TypeNode type;

    Field(CompiledSchema schema, StructField field) {
      this.schema = schema;
      this.field = field;
      this.pe = new FieldName(field.name());
    }

    public TypeNode type() {
      TypeNode t = type;
      if (t == null) {
        t = schema.resolve(field.type());
        type = t;
      }
      return t;
    }
  }
}
