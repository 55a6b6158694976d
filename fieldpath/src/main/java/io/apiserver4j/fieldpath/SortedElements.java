/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import java.util.Arrays;

/**
 * The set operations of {@link FieldSet} on one level: sorted, duplicate-free arrays of path
 * elements, returning an input itself whenever the result equals it (so unchanged subtrees stay
 * shared).
 */
final class SortedElements {
  private SortedElements() {}

  /** Sorted union; returns {@code a} or {@code b} itself when it already holds everything. */
  static PathElement[] unionElements(PathElement[] a, PathElement[] b) {
    if (b.length == 0 || a == b) {
      return a;
    }
    if (a.length == 0) {
      return b;
    }
    PathElement[] out = new PathElement[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      int c = Elements.compare(a[i], b[j]);
      if (c < 0) {
        out[n++] = a[i++];
      } else if (c > 0) {
        out[n++] = b[j++];
      } else {
        out[n++] = a[i++];
        j++;
      }
    }
    while (i < a.length) {
      out[n++] = a[i++];
    }
    while (j < b.length) {
      out[n++] = b[j++];
    }
    if (n == a.length) {
      return a;
    }
    if (n == b.length) {
      return b;
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  static PathElement[] intersectElements(PathElement[] a, PathElement[] b) {
    if (a == b) {
      return a;
    }
    if (a.length == 0 || b.length == 0) {
      return FieldSet.NO_ELEMENTS;
    }
    PathElement[] out = new PathElement[Math.min(a.length, b.length)];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      int c = Elements.compare(a[i], b[j]);
      if (c < 0) {
        i++;
      } else if (c > 0) {
        j++;
      } else {
        out[n++] = a[i++];
        j++;
      }
    }
    if (n == a.length) {
      return a;
    }
    if (n == 0) {
      return FieldSet.NO_ELEMENTS;
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  static PathElement[] differenceElements(PathElement[] a, PathElement[] b) {
    if (a == b) {
      return FieldSet.NO_ELEMENTS;
    }
    if (a.length == 0 || b.length == 0) {
      return a;
    }
    PathElement[] out = null;
    int n = 0;
    int j = 0;
    for (int i = 0; i < a.length; i++) {
      boolean drop = false;
      while (j < b.length) {
        int c = Elements.compare(a[i], b[j]);
        if (c > 0) {
          j++;
        } else {
          if (c == 0) {
            drop = true;
            j++;
          }
          break;
        }
      }
      if (drop && out == null) {
        out = new PathElement[a.length];
        System.arraycopy(a, 0, out, 0, i);
        n = i;
      }
      if (out != null && !drop) {
        out[n++] = a[i];
      }
    }
    if (out == null) {
      return a;
    }
    return n == 0 ? FieldSet.NO_ELEMENTS : Arrays.copyOf(out, n);
  }

  static int search(PathElement[] sorted, PathElement key) {
    int lo = 0;
    int hi = sorted.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Elements.compare(sorted[mid], key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }
}
