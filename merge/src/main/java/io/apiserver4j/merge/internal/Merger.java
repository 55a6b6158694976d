/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.merge.ValidationError;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;

/**
 * Merges a partially specified object onto a value of the same type (SMD's merging walker with
 * the keep-right-hand-side rule): leaves take the right side's value, granular maps are merged
 * key by key, and associative lists item by item, in SMD's order (see {@link #mergeList}).
 *
 * <p>Unchanged sub-trees are shared: when the result of a container equals one side item for
 * item, that side's instance is returned.
 */
public final class Merger {
  private final Errors errors = new Errors();
  /**
   * Whether rhs passed strict validation. Merging such a value onto nothing (or null) can neither
   * fail nor change it, so those sub-trees are returned without walking them.
   */
  private final boolean rhsValid;
  private String[][] keyBuf = new String[16][];
  private Value[][] valBuf = new Value[16][];
  private int depth;

  private Merger(boolean rhsValid) {
    this.rhsValid = rhsValid;
  }

  /** The merged value (null when nothing results), or the errors. */
  public static Object merge(TypeNode type, Value lhs, Value rhs, boolean rhsStrictlyValid) {
    Merger m = new Merger(rhsStrictlyValid);
    Value out = m.walk(type, lhs, rhs);
    if (!m.errors.isEmpty()) {
      return m.errors.list();
    }
    return out == null ? Value.nullValue() : out;
  }

  @SuppressWarnings("unchecked")
  public static List<ValidationError> errorsOf(Object result) {
    return result instanceof List<?> l ? (List<ValidationError>) l : List.of();
  }

  /** Merges {@code rhs} onto {@code lhs}; either may be absent (Java null). Null means no output. */
  private Value walk(TypeNode n, Value lhs, Value rhs) {
    if (rhsValid && rhs != null && (lhs == null || (lhs.isNull() && !rhs.isNull()))) {
      return rhs;
    }
    if (n.unresolved != null) {
      errors.add(n.unresolved);
      return null;
    }
    int al = n.deduce(lhs);
    int ar = n.deduce(rhs);
    if (rhs == null) {
      return handle(n, al, lhs, null);
    }
    if (lhs == null || al == ar) {
      return handle(n, ar, lhs, rhs);
    }
    // Different shapes on the two sides: SMD also walks the left shape, only for its errors.
    handle(n, al, lhs, rhs);
    return handle(n, ar, lhs, rhs);
  }

  private Value handle(TypeNode n, int mask, Value lhs, Value rhs) {
    switch (TypeNode.handled(mask)) {
      case TypeNode.MAP:
        return doMap(n.map, lhs, rhs);
      case TypeNode.SCALAR: {
        String le = Scalars.check(n.scalar, lhs);
        String re = Scalars.check(n.scalar, rhs);
        if (le != null && re != null) {
          errors.add("lhs: " + le);
          errors.add("rhs: " + re);
          return null;
        }
        return rhs != null ? rhs : lhs;
      }
      case TypeNode.LIST:
        return doList(n.list, lhs, rhs);
      default:
        errors.add("schema error: invalid atom: " + n.description);
        return null;
    }
  }

  private Value doMap(MapNode t, Value lhs, Value rhs) {
    MapValue lm = lhs instanceof MapValue m ? m : null;
    MapValue rm = rhs instanceof MapValue m ? m : null;
    if (t.atomic || ((lm == null || lm.isEmpty()) && (rm == null || rm.isEmpty()))) {
      return rhs != null ? rhs : lhs;
    }
    int ln = lm == null ? 0 : lm.size();
    int rn = rm == null ? 0 : rm.size();
    // Per-depth scratch buffers: the result is usually one of the inputs, so build nothing yet.
    int d = depth++;
    if (d == keyBuf.length) {
      keyBuf = java.util.Arrays.copyOf(keyBuf, d * 2);
      valBuf = java.util.Arrays.copyOf(valBuf, d * 2);
    }
    String[] keys = keyBuf[d];
    Value[] vals = valBuf[d];
    if (keys == null || keys.length < ln + rn) {
      keys = new String[Math.max(16, ln + rn)];
      vals = new Value[keys.length];
      keyBuf[d] = keys;
      valBuf[d] = vals;
    }
    int n = 0;
    boolean sameAsLhs = lm != null;
    int fromRhsIdentical = 0;
    for (int i = 0; i < ln; i++) {
      String key = lm.keyAt(i);
      Value lv = lm.valueAt(i);
      Value rv = null;
      if (rm != null) {
        rv = i < rn && rm.keyAt(i).equals(key) ? rm.valueAt(i) : rm.getOrNull(key);
      }
      Value out = child(t, key, lv, rv);
      if (out != lv) {
        sameAsLhs = false;
      }
      if (out != null) {
        if (rv != null && out == rv) {
          fromRhsIdentical++;
        }
        keys[n] = key;
        vals[n++] = out;
      }
    }
    for (int i = 0; i < rn; i++) {
      String key = rm.keyAt(i);
      if (lm != null && ((i < ln && lm.keyAt(i).equals(key)) || lm.containsKey(key))) {
        continue;
      }
      Value rv = rm.valueAt(i);
      Value out = child(t, key, null, rv);
      sameAsLhs = false;
      if (out != null) {
        if (out == rv) {
          fromRhsIdentical++;
        }
        keys[n] = key;
        vals[n++] = out;
      }
    }
    depth--;
    if (n == 0) {
      return null;
    }
    if (sameAsLhs && n == ln) {
      return lm;
    }
    if (rm != null && fromRhsIdentical == rn && n == rn) {
      return rm;
    }
    MapValue.Builder b = MapValue.builder(n);
    for (int i = 0; i < n; i++) {
      b.put(keys[i], vals[i]);
    }
    java.util.Arrays.fill(vals, 0, n, null);
    return b.build();
  }

  private Value child(MapNode t, String key, Value lv, Value rv) {
    MapNode.Field f = t.field(key);
    errors.path.push(key);
    Value out = walk(f != null ? f.type() : t.element(), lv, rv);
    errors.path.pop();
    return out;
  }

  private Value doList(ListNode t, Value lhs, Value rhs) {
    ListValue ll = lhs instanceof ListValue l ? l : null;
    ListValue rl = rhs instanceof ListValue l ? l : null;
    if (t.atomic || ((ll == null || ll.isEmpty()) && (rl == null || rl.isEmpty()))) {
      return rhs != null ? rhs : lhs;
    }
    return mergeList(t, ll, rl);
  }

  /**
   * Merges associative lists in SMD's order: two cursors walk lhs and rhs; an item both share is
   * emitted merged when both cursors reach it in step, an lhs item that rhs also has is otherwise
   * deferred to its rhs position, lhs-only items keep their place, and rhs items are emitted
   * (merged with their lhs counterpart) as the rhs cursor advances. Duplicates are allowed on the
   * left only; a duplicated lhs item merges as null, so rhs's single copy replaces them.
   */
  private Value mergeList(ListNode t, ListValue lhs, ListValue rhs) {
    int ln = lhs == null ? 0 : lhs.size();
    int rn = rhs == null ? 0 : rhs.size();
    PathElement[] rpe = new PathElement[rn];
    HashMap<PathElement, Value> observedR = new HashMap<>(rn * 2);
    boolean failed = false;
    for (int i = 0; i < rn; i++) {
      Object r = ListItems.element(t, rhs.get(i));
      if (r instanceof String err) {
        errors.add("element " + i + ": " + err);
        failed = true;
        continue;
      }
      PathElement pe = (PathElement) r;
      if (observedR.putIfAbsent(pe, rhs.get(i)) != null) {
        errors.add("duplicate entries for key " + pe.toPathString());
        failed = true;
        continue;
      }
      rpe[i] = pe;
    }
    PathElement[] lpe = new PathElement[ln];
    HashMap<PathElement, Value> observedL = new HashMap<>(ln * 2);
    for (int i = 0; i < ln; i++) {
      Object r = ListItems.element(t, lhs.get(i));
      if (r instanceof String err) {
        errors.add("element " + i + ": " + err);
        failed = true;
        continue;
      }
      PathElement pe = (PathElement) r;
      if (observedL.putIfAbsent(pe, lhs.get(i)) != null) {
        observedL.put(pe, Value.nullValue());
      }
      lpe[i] = pe;
    }
    if (failed) {
      return null;
    }
    TypeNode elem = t.element();
    if (rhsValid && ln == rn && Arrays.equals(lpe, rpe)) {
      // Same items in the same order, none duplicated (rhs is valid, so lhs cannot have any
      // either): SMD's two cursors advance in step, so merge pairwise.
      Value[] merged = null;
      for (int i = 0; i < ln; i++) {
        Value li = lhs.get(i);
        Value o = item(elem, lpe[i], li, rhs.get(i));
        if (merged == null && o != li) {
          merged = new Value[ln];
          for (int j = 0; j < i; j++) {
            merged[j] = lhs.get(j);
          }
        }
        if (merged != null) {
          if (o == null) {
            return mergeListGeneral(lhs, rhs, lpe, rpe, observedL, observedR, elem);
          }
          merged[i] = o;
        }
      }
      if (merged == null) {
        return lhs;
      }
      boolean allRhs = true;
      for (int i = 0; i < ln && allRhs; i++) {
        allRhs = merged[i] == rhs.get(i);
      }
      if (allRhs) {
        return rhs;
      }
      ListValue.Builder b = ListValue.builder(ln);
      for (Value v : merged) {
        b.add(v);
      }
      return b.build();
    }
    return mergeListGeneral(lhs, rhs, lpe, rpe, observedL, observedR, elem);
  }

  private Value mergeListGeneral(ListValue lhs, ListValue rhs, PathElement[] lpe, PathElement[] rpe,
      HashMap<PathElement, Value> observedL, HashMap<PathElement, Value> observedR, TypeNode elem) {
    int ln = lpe.length;
    int rn = rpe.length;
    // Shared items in rhs order: the next one decides whether an lhs item is deferred.
    PathElement[] shared = new PathElement[rn];
    int sharedCount = 0;
    for (int i = 0; i < rn; i++) {
      if (observedL.containsKey(rpe[i])) {
        shared[sharedCount++] = rpe[i];
      }
    }
    int sharedAt = 0;
    PathElement nextShared = sharedCount > 0 ? shared[sharedAt++] : null;

    HashSet<PathElement> mergedR = new HashSet<>(rn * 2);
    Value[] out = new Value[ln + rn];
    int n = 0;
    int li = 0;
    int ri = 0;
    while (li < ln || ri < rn) {
      if (li < ln && ri < rn) {
        PathElement pe = lpe[li];
        if (pe.equals(rpe[ri])) {
          mergedR.add(pe);
          Value lv = observedL.get(pe);
          Value o = item(elem, pe, lv, observedR.get(pe));
          if (o != null) {
            out[n++] = o;
          }
          li++;
          ri++;
          nextShared = sharedAt < sharedCount ? shared[sharedAt++] : null;
          continue;
        }
        if (observedR.containsKey(pe) && nextShared != null && !nextShared.equals(pe)) {
          li++;
          continue;
        }
      }
      if (li < ln) {
        PathElement pe = lpe[li];
        if (!observedR.containsKey(pe)) {
          Value lv = lhs.get(li);
          Value o = item(elem, pe, lv, null);
          if (o != null) {
            out[n++] = o;
          }
          li++;
          continue;
        } else if (mergedR.contains(pe)) {
          li++;
        }
      }
      if (ri < rn) {
        PathElement pe = rpe[ri];
        mergedR.add(pe);
        Value o = item(elem, pe, observedL.get(pe), observedR.get(pe));
        if (o != null) {
          out[n++] = o;
        }
        ri++;
        if (nextShared != null && nextShared.equals(pe)) {
          nextShared = sharedAt < sharedCount ? shared[sharedAt++] : null;
        }
      }
    }
    if (n == 0) {
      return null;
    }
    if (n == ln && sameItems(out, lhs)) {
      return lhs;
    }
    ListValue.Builder b = ListValue.builder(n);
    for (int i = 0; i < n; i++) {
      b.add(out[i]);
    }
    return b.build();
  }

  private static boolean sameItems(Value[] out, ListValue lhs) {
    for (int i = 0; i < out.length && i < lhs.size(); i++) {
      if (out[i] != lhs.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** Merges one list item; its errors are discarded, as SMD discards them. */
  private Value item(TypeNode elem, PathElement pe, Value lv, Value rv) {
    errors.suppressed++;
    errors.path.push(pe);
    Value out = walk(elem, lv, rv);
    errors.path.pop();
    errors.suppressed--;
    return out;
  }
}
