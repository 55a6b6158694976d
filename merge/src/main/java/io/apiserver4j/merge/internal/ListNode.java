/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.Value;
import io.apiserver4j.merge.ElementRelationship;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.List;

/** A resolved list type. */
public final class ListNode {
  public final boolean atomic;
  public final boolean associative;
  /** Key field names in schema order; empty for sets and atomic lists. */
  public final String[] keys;
  private final TypeRef elementRef;
  private final CompiledSchema schema;
  private TypeNode element;
  private KeyDefaults keyDefaults;

  ListNode(CompiledSchema schema, TypeRef elementRef, ElementRelationship relationship, List<String> keys) {
    this.schema = schema;
    this.elementRef = elementRef;
    this.atomic = relationship == ElementRelationship.ATOMIC;
    this.associative = relationship == ElementRelationship.ASSOCIATIVE;
    this.keys = keys.toArray(new String[0]);
  }

  public TypeNode element() {
    TypeNode e = element;
    if (e == null) {
      e = schema.resolve(elementRef);
      element = e;
    }
    return e;
  }

  /**
   * The default value of each key field (null where none), or an error when the element type
   * cannot carry keys. Only consulted when an item omits a key field.
   */
  public KeyDefaults keyDefaults() {
    KeyDefaults d = keyDefaults;
    if (d == null) {
      d = computeKeyDefaults();
      keyDefaults = d;
    }
    return d;
  }

  private KeyDefaults computeKeyDefaults() {
    TypeNode e = element();
    if (e.unresolved != null) {
      return new KeyDefaults(null, "invalid elementType for list");
    }
    if (e.map == null) {
      return new KeyDefaults(null, "associative list may not have non-map types");
    }
    Value[] defaults = new Value[keys.length];
    for (int i = 0; i < keys.length; i++) {
      StructField f = e.map.declaredField(keys[i]);
      defaults[i] = f == null ? null : f.defaultValue().orElse(null);
    }
    return new KeyDefaults(defaults, null);
  }

  /** Key defaults, or the reason there are none. */
  public static final class KeyDefaults {
    public final Value[] defaults;
    public final String error;

    KeyDefaults(Value[] defaults, String error) {
      this.defaults = defaults;
      this.error = error;
    }
  }
}
