/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.Key;
import io.apiserver4j.fieldpath.PathElement;

/**
 * SMD's {@code EnsureNamedFieldsAreMembers}: a set that also contains every declared struct field
 * that only appears as a parent of other paths ({@code a.b.c} then also owns {@code a} if
 * {@code a} is a declared field, but not a map key). The schema is consulted without looking at a
 * value, so types are followed by their map member for field names and their list member for
 * keys.
 */
public final class NamedFields {
  private NamedFields() {}

  public static FieldSet ensureMembers(TypeNode n, FieldSet set) {
    if (set.childCount() == 0 || n == null || (n.map == null && n.list == null)) {
      return set;
    }
    FieldSet.Builder b = null;
    for (int i = 0; i < set.childCount(); i++) {
      PathElement pe = set.childElementAt(i);
      FieldSet child = set.childAt(i);
      TypeNode childType = null;
      boolean named = false;
      if (pe instanceof FieldName fn && n.map != null) {
        MapNode.Field f = n.map.field(fn.name());
        if (f != null) {
          named = true;
          childType = f.type();
        } else if (n.map.hasElementType) {
          childType = n.map.element();
        }
      } else if (pe instanceof Key && n.list != null) {
        childType = n.list.element();
      }
      FieldSet newChild = ensureMembers(childType, child);
      boolean addMember = named && !set.hasMember(pe);
      if (b == null && (addMember || newChild != child)) {
        b = FieldSet.builder();
        for (int j = 0; j < set.memberCount(); j++) {
          b.addMember(set.memberAt(j));
        }
        for (int j = 0; j < i; j++) {
          b.addChild(set.childElementAt(j), set.childAt(j));
        }
      }
      if (b != null) {
        if (addMember) {
          b.addMember(pe);
        }
        b.addChild(pe, newChild);
      }
    }
    return b == null ? set : b.build();
  }
}
