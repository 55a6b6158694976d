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
import io.apiserver4j.merge.Comparison;
import io.apiserver4j.merge.ValidationError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Compares two values of one type (SMD's compare walker) and reports added, modified and removed
 * fields. Leaves (scalars, atomic and empty containers) are compared by value; granular maps and
 * associative lists are compared item by item, and a container present on one side only is itself
 * added or removed. Items duplicated on either side are compared as a whole.
 *
 * <p>Results are built bottom-up: each call leaves the flags of the visited node and the three
 * sets of its descendants in fields that the parent folds into its own builders. Identical
 * sub-trees (the same instance on both sides) are skipped.
 */
public final class Comparer {
  private static final int ADDED = 1;
  private static final int REMOVED = 2;
  private static final int MODIFIED = 4;

  private final Errors errors = new Errors();
  /** Whether the two values are equal ({@code Value.equals}) as far as walked. */
  private boolean exact = true;
  /** Whether the two values are equal as SMD's value equality defines it. */
  private boolean smdEqual = true;
  private int self;
  private FieldSet added;
  private FieldSet modified;
  private FieldSet removed;

  private Comparer() {}

  /**
   * The outcome of a comparison. Besides the three sets it tells whether the values are equal,
   * exactly and by SMD's value equality (which treats 1 and 1.0 alike), which the updater needs
   * anyway and would otherwise get from a second walk. A difference the sets do not show (the
   * order of associative list items) still makes the values unequal.
   */
  public record Result(Comparison comparison, boolean exactlyEqual, boolean smdEqual) {}

  /** The comparison ({@link Result}), or the errors when the values do not fit the type. */
  public static Object compare(TypeNode type, Value lhs, Value rhs) {
    Comparer c = new Comparer();
    c.walk(type, lhs, rhs);
    if (!c.errors.isEmpty()) {
      return c.errors.list();
    }
    return new Result(new Comparison(c.added, c.modified, c.removed), c.exact, c.smdEqual);
  }

  private void unequal() {
    exact = false;
    smdEqual = false;
  }

  @SuppressWarnings("unchecked")
  public static List<ValidationError> errorsOf(Object result) {
    return result instanceof List<?> l ? (List<ValidationError>) l : List.of();
  }

  private void clear() {
    self = 0;
    added = FieldSet.empty();
    modified = FieldSet.empty();
    removed = FieldSet.empty();
  }

  /** Compares {@code lhs} and {@code rhs} (either may be absent, i.e. Java null). */
  private void walk(TypeNode n, Value lhs, Value rhs) {
    clear();
    if (lhs == rhs) {
      return;
    }
    if (n.unresolved != null) {
      errors.add(n.unresolved);
      return;
    }
    int al = n.deduce(lhs);
    int ar = n.deduce(rhs);
    boolean leaf;
    if (rhs == null) {
      leaf = handle(n, al, lhs, null);
    } else if (lhs == null || al == ar) {
      leaf = handle(n, ar, lhs, rhs);
    } else {
      // Different shapes on both sides: SMD walks the left shape too and keeps what it records.
      unequal();
      handle(n, al, lhs, rhs);
      int s = self;
      FieldSet a = added;
      FieldSet m = modified;
      FieldSet r = removed;
      leaf = handle(n, ar, lhs, rhs);
      self |= s;
      added = added.union(a);
      modified = modified.union(m);
      removed = removed.union(r);
    }
    if (!leaf) {
      if (lhs == null) {
        self |= ADDED;
        unequal();
      } else if (rhs == null) {
        self |= REMOVED;
        unequal();
      }
    }
  }

  /** Runs the handler of one atom member; returns whether the node was treated as a leaf. */
  private boolean handle(TypeNode n, int mask, Value lhs, Value rhs) {
    clear();
    switch (TypeNode.handled(mask)) {
      case TypeNode.MAP:
        return doMap(n.map, lhs, rhs);
      case TypeNode.SCALAR: {
        String le = Scalars.check(n.scalar, lhs);
        String re = Scalars.check(n.scalar, rhs);
        if (le != null && re != null) {
          errors.add("lhs: " + le);
          errors.add("rhs: " + re);
          return false;
        }
        return leaf(lhs, rhs);
      }
      case TypeNode.LIST:
        return doList(n.list, lhs, rhs);
      default:
        errors.add("schema error: invalid atom: " + n.description);
        return false;
    }
  }

  private boolean leaf(Value lhs, Value rhs) {
    if (lhs == null) {
      self = ADDED;
      unequal();
    } else if (rhs == null) {
      self = REMOVED;
      unequal();
    } else if (!lhs.equals(rhs)) {
      exact = false;
      if (!SmdValues.equal(lhs, rhs)) {
        self = MODIFIED;
        smdEqual = false;
      }
    }
    return true;
  }

  private boolean doMap(MapNode t, Value lhs, Value rhs) {
    MapValue lm = lhs instanceof MapValue m ? m : null;
    MapValue rm = rhs instanceof MapValue m ? m : null;
    if (t.atomic || ((lm == null || lm.isEmpty()) && (rm == null || rm.isEmpty()))) {
      return leaf(lhs, rhs);
    }
    Acc acc = new Acc();
    int ln = lm == null ? 0 : lm.size();
    for (int i = 0; i < ln; i++) {
      String key = lm.keyAt(i);
      Value rv = null;
      if (rm != null) {
        rv = i < rm.size() && rm.keyAt(i).equals(key) ? rm.valueAt(i) : rm.getOrNull(key);
      }
      child(t, key, lm.valueAt(i), rv, acc);
    }
    if (rm != null) {
      for (int i = 0; i < rm.size(); i++) {
        String key = rm.keyAt(i);
        boolean inLhs = lm != null
            && ((i < ln && lm.keyAt(i).equals(key)) || lm.containsKey(key));
        if (!inLhs) {
          child(t, key, null, rm.valueAt(i), acc);
        }
      }
    }
    acc.finish(this);
    return false;
  }

  private void child(MapNode t, String key, Value lv, Value rv, Acc acc) {
    MapNode.Field f = t.field(key);
    errors.path.push(key);
    walk(f != null ? f.type() : t.element(), lv, rv);
    errors.path.pop();
    if (self != 0 || !added.isEmpty() || !modified.isEmpty() || !removed.isEmpty()) {
      acc.record(f != null ? f.pe : new FieldName(key), this);
    }
  }

  private boolean doList(ListNode t, Value lhs, Value rhs) {
    ListValue ll = lhs instanceof ListValue l ? l : null;
    ListValue rl = rhs instanceof ListValue l ? l : null;
    if (t.atomic || ((ll == null || ll.isEmpty()) && (rl == null || rl.isEmpty()))) {
      return leaf(lhs, rhs);
    }
    Acc acc = new Acc();
    TypeNode elem = t.element();
    int ln = ll == null ? 0 : ll.size();
    int rn = rl == null ? 0 : rl.size();
    PathElement[] lpe = elements(t, ll, ln);
    PathElement[] rpe = elements(t, rl, rn);
    if (ln == rn && sameOrderNoDuplicates(lpe, rpe)) {
      // The common case: the same items in the same order, compared pairwise.
      for (int i = 0; i < ln; i++) {
        if (lpe[i] != null) {
          item(elem, lpe[i], ll.get(i), rl.get(i), acc);
        }
      }
      acc.finish(this);
      return false;
    }
    if (ln != rn || !samePathElements(lpe, rpe)) {
      // Items in another order (or other items) make the lists unequal even where the field
      // sets do not show it.
      unequal();
    } else {
      exact &= ll.equals(rl);
      smdEqual &= SmdValues.equal(ll, rl);
    }
    // Items grouped by identity, keeping duplicates, in first-seen order (lhs first).
    HashMap<PathElement, Object> lValues = new HashMap<>(ln * 2);
    HashMap<PathElement, Object> rValues = new HashMap<>(rn * 2);
    List<PathElement> all = new ArrayList<>(Math.max(ln, rn));
    for (int i = 0; i < ln; i++) {
      if (lpe[i] != null && group(lValues, lpe[i], ll.get(i))) {
        all.add(lpe[i]);
      }
    }
    for (int i = 0; i < rn; i++) {
      if (rpe[i] != null && group(rValues, rpe[i], rl.get(i)) && !lValues.containsKey(rpe[i])) {
        all.add(rpe[i]);
      }
    }
    for (PathElement pe : all) {
      Object l = lValues.get(pe);
      Object r = rValues.get(pe);
      int lc = count(l);
      int rc = count(r);
      if (lc <= 1 && rc <= 1) {
        item(elem, pe, first(l), first(r), acc);
      } else if (lc >= 2 && rc >= 2) {
        if (!sameItems(l, r)) {
          acc.member(pe, MODIFIED);
        }
      } else if (lc >= 2) {
        if (rc != 0) {
          item(elem, pe, null, first(r), acc);
        }
        acc.member(pe, REMOVED);
      } else {
        if (lc != 0) {
          item(elem, pe, first(l), null, acc);
        }
        acc.member(pe, ADDED);
      }
    }
    acc.finish(this);
    return false;
  }

  private PathElement[] elements(ListNode t, ListValue l, int n) {
    PathElement[] pes = new PathElement[n];
    for (int i = 0; i < n; i++) {
      Object r = ListItems.element(t, l.get(i));
      if (r instanceof String err) {
        errors.add("element " + i + ": " + err);
      } else {
        pes[i] = (PathElement) r;
      }
    }
    return pes;
  }

  private static boolean samePathElements(PathElement[] l, PathElement[] r) {
    for (int i = 0; i < l.length; i++) {
      if (l[i] == null || r[i] == null || !l[i].equals(r[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameOrderNoDuplicates(PathElement[] l, PathElement[] r) {
    for (int i = 0; i < l.length; i++) {
      if (l[i] == null || r[i] == null || !l[i].equals(r[i])) {
        return false;
      }
    }
    return FieldSetWalker.duplicates(l) == null;
  }

  private void item(TypeNode elem, PathElement pe, Value lv, Value rv, Acc acc) {
    errors.path.push(pe);
    walk(elem, lv, rv);
    errors.path.pop();
    if (self != 0 || !added.isEmpty() || !modified.isEmpty() || !removed.isEmpty()) {
      acc.record(pe, this);
    }
  }

  /** Adds {@code v} under {@code pe}; returns whether {@code pe} is new. */
  @SuppressWarnings("unchecked")
  private static boolean group(HashMap<PathElement, Object> m, PathElement pe, Value v) {
    Object prev = m.get(pe);
    if (prev == null) {
      m.put(pe, v);
      return true;
    }
    if (prev instanceof Value pv) {
      List<Value> list = new ArrayList<>(2);
      list.add(pv);
      list.add(v);
      m.put(pe, list);
    } else {
      ((List<Value>) prev).add(v);
    }
    return false;
  }

  private static int count(Object o) {
    return o == null ? 0 : o instanceof Value ? 1 : ((List<?>) o).size();
  }

  private static Value first(Object o) {
    return o == null ? null : o instanceof Value v ? v : (Value) ((List<?>) o).get(0);
  }

  private static boolean sameItems(Object l, Object r) {
    List<?> a = (List<?>) l;
    List<?> b = (List<?>) r;
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!SmdValues.equal((Value) a.get(i), (Value) b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The three builders of one container, created on first use. */
  private static final class Acc {
    private FieldSet.Builder added;
    private FieldSet.Builder modified;
    private FieldSet.Builder removed;

    void member(PathElement pe, int flags) {
      if ((flags & ADDED) != 0) {
        added().addMember(pe);
      }
      if ((flags & REMOVED) != 0) {
        removed().addMember(pe);
      }
      if ((flags & MODIFIED) != 0) {
        modified().addMember(pe);
      }
    }

    void record(PathElement pe, Comparer c) {
      member(pe, c.self);
      if (!c.added.isEmpty()) {
        added().addChild(pe, c.added);
      }
      if (!c.modified.isEmpty()) {
        modified().addChild(pe, c.modified);
      }
      if (!c.removed.isEmpty()) {
        removed().addChild(pe, c.removed);
      }
    }

    void finish(Comparer c) {
      c.self = 0;
      c.added = added == null ? FieldSet.empty() : added.build();
      c.modified = modified == null ? FieldSet.empty() : modified.build();
      c.removed = removed == null ? FieldSet.empty() : removed.build();
    }

    private FieldSet.Builder added() {
      if (added == null) {
        added = FieldSet.builder();
      }
      return added;
    }

    private FieldSet.Builder modified() {
      if (modified == null) {
        modified = FieldSet.builder();
      }
      return modified;
    }

    private FieldSet.Builder removed() {
      if (removed == null) {
        removed = FieldSet.builder();
      }
      return removed;
    }
  }
}
