/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.PathElement;
import java.util.ArrayList;
import java.util.List;

/**
 * Corrects a managed field set after a schema change (SMD's {@code ReconcileFieldSetWithSchema}):
 * where a granular list or map became atomic, ownership of anything inside it becomes ownership
 * of the container itself. Atomic-to-granular changes need nothing (the owner keeps the
 * container). Maps of the untyped deduced type are skipped, as in SMD.
 */
public final class Reconciler {
  private final List<FieldPath> collapse = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private PathElement[] path = new PathElement[16];
  private int depth;

  private Reconciler() {}

  /**
   * The reconciled set, or null when no correction was needed. Throws IllegalArgumentException
   * when a type on the way cannot be resolved.
   */
  public static FieldSet reconcile(TypeNode type, FieldSet set) {
    Reconciler r = new Reconciler();
    r.walk(type, set, false);
    if (!r.errors.isEmpty()) {
      throw new IllegalArgumentException(
          "errors reconciling field set with schema: " + String.join("; ", r.errors));
    }
    if (r.collapse.isEmpty()) {
      return null;
    }
    FieldSet paths = FieldSet.of(r.collapse);
    return set.recursiveDifference(paths).union(paths);
  }

  /** {@code set} is the owned sub-set at the current path, or null when nothing is owned below. */
  private void walk(TypeNode n, FieldSet set, boolean isAtomic) {
    if (n.unresolved != null) {
      errors.add("could not resolve " + n.description + " at " + currentPath());
      return;
    }
    if (n.map != null) {
      doMap(n.map, set, isAtomic);
    } else if (n.scalar != null) {
      return;
    } else if (n.list != null) {
      doList(n.list, set, isAtomic);
    } else {
      errors.add("schema error: invalid atom: " + n.description + " at " + currentPath());
    }
  }

  private void doList(ListNode t, FieldSet set, boolean isAtomic) {
    if (!isAtomic && t.atomic) {
      collapse.add(currentPath());
      return;
    }
    if (set != null) {
      TypeNode elem = t.element();
      visit(set, elem, null);
    }
  }

  private void doMap(MapNode t, FieldSet set, boolean isAtomic) {
    if (t.noFields && t.untypedDeducedElement) {
      return;
    }
    if (!isAtomic && t.atomic) {
      if (set != null && !set.isEmpty()) {
        collapse.add(currentPath());
      }
      return;
    }
    if (set != null) {
      visit(set, null, t);
    }
  }

  /** Visits child-only elements first, then members (each with its children, if any). */
  private void visit(FieldSet set, TypeNode listElem, MapNode map) {
    for (int i = 0; i < set.childCount(); i++) {
      PathElement pe = set.childElementAt(i);
      if (!set.hasMember(pe)) {
        element(pe, set.childAt(i), false, listElem, map);
      }
    }
    for (int i = 0; i < set.memberCount(); i++) {
      PathElement pe = set.memberAt(i);
      FieldSet child = set.child(pe).orElse(null);
      element(pe, child, child == null, listElem, map);
    }
  }

  private void element(PathElement pe, FieldSet child, boolean isAtomic, TypeNode listElem, MapNode map) {
    TypeNode type;
    if (map != null) {
      MapNode.Field f = pe instanceof FieldName fn ? map.field(fn.name()) : null;
      if (f != null) {
        type = f.type();
      } else if (map.hasElementType) {
        type = map.element();
      } else {
        return;
      }
    } else {
      type = listElem;
    }
    push(pe);
    walk(type, child, isAtomic);
    depth--;
  }

  private void push(PathElement pe) {
    if (depth == path.length) {
      path = java.util.Arrays.copyOf(path, depth * 2);
    }
    path[depth++] = pe;
  }

  private FieldPath currentPath() {
    return FieldPath.of(java.util.Arrays.copyOf(path, depth));
  }
}
