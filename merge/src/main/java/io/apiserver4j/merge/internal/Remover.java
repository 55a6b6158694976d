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

/**
 * Removes the fields of a set from a value, or extracts (keeps only) them: SMD's removing
 * walker, including its edge cases, which the conformance data pins down:
 *
 * <ul>
 *   <li>a container emptied by removal becomes null, and removing below an atomic or empty
 *       container gives null;
 *   <li>extracting keeps atomic and empty containers whole, and an extracted map field that is
 *       itself in the set is extracted again with the whole set of the current level.
 * </ul>
 *
 * <p>Sub-trees the set does not touch are shared with the input.
 */
public final class Remover {
  private final boolean extract;

  private Remover(boolean extract) {
    this.extract = extract;
  }

  /** {@code value} without the fields of {@code set}; never Java null (null is {@code NullValue}). */
  public static Value remove(TypeNode type, Value value, FieldSet set) {
    Value out = new Remover(false).walk(type, value, set);
    return out == null ? Value.nullValue() : out;
  }

  /** Only the fields of {@code set} of {@code value}. */
  public static Value extract(TypeNode type, Value value, FieldSet set) {
    Value out = new Remover(true).walk(type, value, set);
    return out == null ? Value.nullValue() : out;
  }

  private Value walk(TypeNode n, Value v, FieldSet set) {
    if (n.unresolved != null) {
      return null;
    }
    switch (TypeNode.handled(n.deduce(v))) {
      case TypeNode.MAP:
        return doMap(n.map, v, set);
      case TypeNode.SCALAR:
        return v;
      case TypeNode.LIST:
        return doList(n.list, v, set);
      default:
        return null;
    }
  }

  private Value doList(ListNode t, Value v, FieldSet set) {
    if (!(v instanceof ListValue l)) {
      return null;
    }
    if (l.isEmpty() || t.atomic) {
      return extract ? v : null;
    }
    TypeNode elem = null;
    ListValue.Builder b = null;
    boolean unchanged = true;
    for (int i = 0; i < l.size(); i++) {
      Value item = l.get(i);
      Object r = ListItems.element(t, item);
      PathElement pe = r instanceof PathElement p ? p : null;
      boolean exact = pe != null && set.hasMember(pe);
      FieldSet sub = pe == null ? FieldSet.empty() : set.childOrEmpty(pe);
      boolean prefix = !sub.isEmpty();
      Value out;
      if (extract) {
        if (!exact && !prefix) {
          unchanged = false;
          continue;
        }
        out = item;
      } else {
        if (exact) {
          unchanged = false;
          continue;
        }
        out = item;
      }
      if (prefix) {
        if (elem == null) {
          elem = t.element();
        }
        out = walk(elem, item, sub);
        if (out == null) {
          out = Value.nullValue();
        }
        if (out != item) {
          unchanged = false;
        }
      }
      if (b == null) {
        b = ListValue.builder(l.size());
      }
      b.add(out);
    }
    if (b == null) {
      return null;
    }
    return unchanged ? l : b.build();
  }

  private Value doMap(MapNode t, Value v, FieldSet set) {
    if (!(v instanceof MapValue m)) {
      return null;
    }
    if (m.isEmpty() || t.atomic) {
      return extract ? v : null;
    }
    MapValue.Builder b = null;
    boolean unchanged = true;
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      Value val = m.valueAt(i);
      MapNode.Field f = t.field(key);
      PathElement pe = f != null ? f.pe : new FieldName(key);
      Value out;
      if (set.hasMember(pe)) {
        if (!extract) {
          unchanged = false;
          continue;
        }
        // SMD extracts again with the set of this level, not the field's sub-set.
        out = walk(f != null ? f.type() : t.element(), val, set);
      } else {
        FieldSet sub = set.childOrEmpty(pe);
        if (!sub.isEmpty()) {
          out = walk(f != null ? f.type() : t.element(), val, sub);
        } else if (extract) {
          unchanged = false;
          continue;
        } else {
          out = val;
        }
      }
      if (out == null) {
        out = Value.nullValue();
      }
      if (out != val) {
        unchanged = false;
      }
      if (b == null) {
        b = MapValue.builder(m.size());
      }
      b.put(key, out);
    }
    if (b == null) {
      return null;
    }
    return unchanged ? m : b.build();
  }
}
