/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.merge.ValidationError;
import java.util.HashMap;
import java.util.List;

/**
 * Builds the set of every field a value sets (SMD's {@code ToFieldSet}): scalars and atomic
 * containers are leaves; a map entry is also a member when it is null, an empty map, or an
 * undeclared key; list items are members, and items that occur several times are recorded once
 * without their contents. The set is assembled bottom-up, one builder per container.
 */
public final class FieldSetWalker {
  private final Errors errors = new Errors();
  /** Whether the node last walked is itself a member of the set. */
  private boolean self;

  private FieldSetWalker() {}

  /** The field set, or the errors when the value does not fit the type. */
  public static Object toFieldSet(TypeNode type, Value value) {
    FieldSetWalker w = new FieldSetWalker();
    FieldSet s = w.walk(type, value);
    return w.errors.isEmpty() ? s : w.errors.list();
  }

  @SuppressWarnings("unchecked")
  public static List<ValidationError> errorsOf(Object result) {
    return result instanceof List<?> l ? (List<ValidationError>) l : List.of();
  }

  private FieldSet walk(TypeNode n, Value v) {
    if (n.unresolved != null) {
      errors.add(n.unresolved);
      self = false;
      return FieldSet.empty();
    }
    switch (TypeNode.handled(n.deduce(v))) {
      case TypeNode.MAP:
        return doMap(n.map, v);
      case TypeNode.SCALAR:
        self = true;
        return FieldSet.empty();
      case TypeNode.LIST:
        return doList(n.list, v);
      default:
        errors.add("schema error: invalid atom: " + n.description);
        self = false;
        return FieldSet.empty();
    }
  }

  private FieldSet doList(ListNode t, Value v) {
    if (t.atomic) {
      self = true;
      return FieldSet.empty();
    }
    self = false;
    if (!(v instanceof ListValue list) || list.isEmpty()) {
      return FieldSet.empty();
    }
    int n = list.size();
    PathElement[] pes = new PathElement[n];
    for (int i = 0; i < n; i++) {
      Object r = ListItems.element(t, list.get(i));
      // Unidentifiable items only occur in unvalidated values; they cannot be named, so skip them.
      pes[i] = r instanceof PathElement pe ? pe : null;
    }
    HashMap<PathElement, Boolean> duplicated = duplicates(pes);
    TypeNode elem = t.element();
    FieldSet.Builder b = FieldSet.builder();
    for (int i = 0; i < n; i++) {
      PathElement pe = pes[i];
      if (pe == null) {
        continue;
      }
      if (duplicated != null && duplicated.containsKey(pe)) {
        b.addMember(pe);
        continue;
      }
      errors.path.push(pe);
      FieldSet child = walk(elem, list.get(i));
      errors.path.pop();
      b.addMember(pe);
      if (!child.isEmpty()) {
        b.addChild(pe, child);
      }
    }
    self = false;
    return b.build();
  }

  /** The elements that occur more than once, or null when all are distinct. */
  static HashMap<PathElement, Boolean> duplicates(PathElement[] pes) {
    int n = pes.length;
    if (n < 2) {
      return null;
    }
    if (n == 2) {
      if (pes[0] != null && pes[0].equals(pes[1])) {
        HashMap<PathElement, Boolean> d = new HashMap<>(2);
        d.put(pes[0], Boolean.TRUE);
        return d;
      }
      return null;
    }
    HashMap<PathElement, Boolean> seen = new HashMap<>(n * 2);
    HashMap<PathElement, Boolean> dups = null;
    for (PathElement pe : pes) {
      if (pe != null && seen.put(pe, Boolean.TRUE) != null) {
        if (dups == null) {
          dups = new HashMap<>();
        }
        dups.put(pe, Boolean.TRUE);
      }
    }
    return dups;
  }

  private FieldSet doMap(MapNode t, Value v) {
    if (t.atomic) {
      self = true;
      return FieldSet.empty();
    }
    self = false;
    if (!(v instanceof MapValue m) || m.isEmpty()) {
      return FieldSet.empty();
    }
    FieldSet.Builder b = FieldSet.builder();
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      Value val = m.valueAt(i);
      MapNode.Field f = t.field(key);
      TypeNode type = f != null ? f.type() : t.element();
      errors.path.push(key);
      FieldSet child = walk(type, val);
      errors.path.pop();
      boolean member = self
          || f == null
          || val.isNull()
          || (val instanceof MapValue mv && mv.isEmpty());
      if (member || !child.isEmpty()) {
        PathElement pe = f != null ? f.pe : new FieldName(key);
        if (member) {
          b.addMember(pe);
        }
        if (!child.isEmpty()) {
          b.addChild(pe, child);
        }
      }
    }
    self = false;
    return b.build();
  }
}
