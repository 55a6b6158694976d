/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.Index;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.merge.ValidationError;
import java.util.HashSet;
import java.util.List;

/**
 * Checks a value against its type (SMD's validating walker): scalar kinds, list and map shapes,
 * identifiable and (unless allowed) unique associative-list items, and no undeclared fields in
 * structs without an element type. Like SMD, an item that cannot be identified stops the
 * validation of the rest of its list, and an undeclared field stops that of the rest of its map.
 */
public final class Validator {
  private final Errors errors = new Errors();
  private final boolean allowDuplicates;

  private Validator(boolean allowDuplicates) {
    this.allowDuplicates = allowDuplicates;
  }

  public static List<ValidationError> validate(TypeNode type, Value value, boolean allowDuplicates) {
    Validator v = new Validator(allowDuplicates);
    v.walk(type, value);
    return v.errors.list();
  }

  private void walk(TypeNode n, Value v) {
    if (n.unresolved != null) {
      errors.add(n.unresolved);
      return;
    }
    switch (TypeNode.handled(n.deduce(v))) {
      case TypeNode.MAP:
        doMap(n.map, v);
        break;
      case TypeNode.SCALAR:
        String err = Scalars.check(n.scalar, v);
        if (err != null) {
          errors.add(err);
        }
        break;
      case TypeNode.LIST:
        doList(n.list, v);
        break;
      default:
        errors.add("schema error: invalid atom: " + n.description);
    }
  }

  private void doList(ListNode t, Value v) {
    if (v.isNull()) {
      return;
    }
    if (!(v instanceof ListValue list)) {
      errors.add("expected list, got " + Scalars.describe(v));
      return;
    }
    TypeNode elem = null;
    HashSet<PathElement> seen = t.associative ? new HashSet<>(list.size() * 2) : null;
    for (int i = 0; i < list.size(); i++) {
      Value child = list.get(i);
      PathElement pe;
      if (!t.associative) {
        pe = new Index(i);
      } else {
        Object r = ListItems.element(t, child);
        if (r instanceof String err) {
          errors.add("element " + i + ": " + err);
          return;
        }
        pe = (PathElement) r;
        if (!seen.add(pe) && !allowDuplicates) {
          errors.add("duplicate entries for key " + pe.toPathString());
        }
      }
      if (elem == null) {
        elem = t.element();
      }
      errors.path.push(pe);
      walk(elem, child);
      errors.path.pop();
    }
  }

  private void doMap(MapNode t, Value v) {
    if (v.isNull()) {
      return;
    }
    if (!(v instanceof MapValue m)) {
      errors.add("expected map, got " + Scalars.describe(v));
      return;
    }
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      MapNode.Field f = t.field(key);
      TypeNode type;
      if (f != null) {
        type = f.type();
      } else if (t.hasElementType) {
        type = t.element();
      } else {
        errors.path.push(key);
        errors.add("field not declared in schema");
        errors.path.pop();
        return;
      }
      errors.path.push(key);
      walk(type, m.valueAt(i));
      errors.path.pop();
    }
  }
}
