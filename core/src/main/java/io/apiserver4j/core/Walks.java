/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.ArrayDeque;

/**
 * Equality and hashing of value trees with explicit stacks: a value as deep as the readers accept
 * ({@link DecodeLimits#MAX_DEPTH}) is compared and hashed on any thread, whatever its stack size.
 */
final class Walks {
  private Walks() {}

  /** Structural equality of two trees, exact as {@link Value} defines it. */
  static boolean deepEquals(Value a, Value b) {
    ArrayDeque<Value> work = new ArrayDeque<>();
    work.push(a);
    work.push(b);
    while (!work.isEmpty()) {
      Value y = work.pop();
      Value x = work.pop();
      if (x == y) {
        continue;
      }
      if (x instanceof MapValue mx) {
        if (!(y instanceof MapValue my) || mx.size() != my.size()
            || (mx.hashCached() && my.hashCached() && mx.hashCode() != my.hashCode())) {
          return false;
        }
        for (int i = 0; i < mx.size(); i++) {
          int j = my.indexOf(mx.keyAt(i), i);
          if (j < 0) {
            return false;
          }
          work.push(mx.valueAt(i));
          work.push(my.valueAt(j));
        }
      } else if (x instanceof ListValue lx) {
        if (!(y instanceof ListValue ly) || lx.size() != ly.size()
            || (lx.hashCached() && ly.hashCached() && lx.hashCode() != ly.hashCode())) {
          return false;
        }
        for (int i = 0; i < lx.size(); i++) {
          work.push(lx.get(i));
          work.push(ly.get(i));
        }
      } else if (!x.equals(y)) {
        return false;
      }
    }
    return true;
  }

  /** Caches the hash of {@code root} and of every container below it, children first. */
  static void cacheHashes(Value root) {
    ArrayDeque<Value> work = new ArrayDeque<>();
    work.push(root);
    while (!work.isEmpty()) {
      Value top = work.peek();
      boolean pending = false;
      if (top instanceof MapValue m) {
        if (m.hashCached()) {
          work.pop();
          continue;
        }
        for (int i = 0; i < m.size(); i++) {
          pending |= pushIfUncached(work, m.valueAt(i));
        }
        if (!pending) {
          work.pop();
          m.cacheShallowHash();
        }
      } else {
        ListValue l = (ListValue) top;
        if (l.hashCached()) {
          work.pop();
          continue;
        }
        for (int i = 0; i < l.size(); i++) {
          pending |= pushIfUncached(work, l.get(i));
        }
        if (!pending) {
          work.pop();
          l.cacheShallowHash();
        }
      }
    }
  }

  private static boolean pushIfUncached(ArrayDeque<Value> work, Value v) {
    if ((v instanceof MapValue m && !m.hashCached()) || (v instanceof ListValue l && !l.hashCached())) {
      work.push(v);
      return true;
    }
    return false;
  }
}
