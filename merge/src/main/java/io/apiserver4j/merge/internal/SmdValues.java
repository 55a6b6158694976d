/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/**
 * Value equality as SMD's {@code value.Equals} defines it: like {@code Value.equals} except that
 * an integer and a float are equal when numerically equal. Used where SMD decides whether a leaf
 * was modified.
 */
public final class SmdValues {
  private SmdValues() {}

  public static boolean equal(Value a, Value b) {
    if (a == b) {
      return true;
    }
    if (a instanceof FloatValue || b instanceof FloatValue) {
      double x;
      double y;
      if (a instanceof FloatValue f) {
        x = f.value();
      } else if (a instanceof IntegerValue i) {
        x = i.value();
      } else {
        return false;
      }
      if (b instanceof FloatValue f) {
        y = f.value();
      } else if (b instanceof IntegerValue i) {
        y = i.value();
      } else {
        return false;
      }
      return x == y;
    }
    if (a instanceof ListValue la) {
      if (!(b instanceof ListValue lb) || la.size() != lb.size()) {
        return false;
      }
      for (int i = 0; i < la.size(); i++) {
        if (!equal(la.get(i), lb.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof MapValue ma) {
      if (!(b instanceof MapValue mb) || ma.size() != mb.size()) {
        return false;
      }
      for (int i = 0; i < ma.size(); i++) {
        String k = ma.keyAt(i);
        Value bv = i < mb.size() && mb.keyAt(i).equals(k) ? mb.valueAt(i) : mb.getOrNull(k);
        if (bv == null || !equal(ma.valueAt(i), bv)) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }
}
