/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * kube's {@code orderedIntervals} (pkg/controller/job/indexed_job_utils.go): sorted, disjoint,
 * non-adjacent closed intervals of completion indexes, written as {@code status.completedIndexes}
 * is ({@code "1,3-5,7,8"}: a pair of neighbours is written with a comma). Immutable.
 */
record Intervals(List<int[]> intervals) {
  static final Intervals EMPTY = new Intervals(List.of());

  Intervals {
    intervals = List.copyOf(intervals);
  }

  /**
   * kube's {@code parseIndexesFromString}: corrupt intervals are skipped, indexes at or past
   * {@code completions} dropped, and neighbouring intervals joined.
   */
  static Intervals parse(String text, long completions) {
    if (text.isEmpty()) {
      return EMPTY;
    }
    List<int[]> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String[] limits = part.split("-", -1);
      int first;
      int last;
      try {
        first = Integer.parseInt(limits[0]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (first >= completions) {
        break;
      }
      if (limits.length > 1) {
        try {
          last = Integer.parseInt(limits[1]);
        } catch (NumberFormatException e) {
          continue;
        }
        if (last >= completions) {
          last = (int) completions - 1;
        }
      } else {
        last = first;
      }
      if (!out.isEmpty() && out.get(out.size() - 1)[1] == first - 1) {
        out.get(out.size() - 1)[1] = last;
      } else {
        out.add(new int[] {first, last});
      }
    }
    return new Intervals(out);
  }

  /** kube's {@code withOrderedIndexes}: these intervals with {@code indexes} added. */
  Intervals with(Collection<Integer> indexes) {
    List<int[]> add = new ArrayList<>();
    for (int i : new TreeSet<>(indexes)) {
      add.add(new int[] {i, i});
    }
    return merge(new Intervals(add));
  }

  /** kube's {@code merge}: the union, adjacent intervals joined. */
  Intervals merge(Intervals other) {
    List<int[]> all = new ArrayList<>();
    int i = 0;
    int j = 0;
    List<int[]> a = intervals;
    List<int[]> b = other.intervals;
    while (i < a.size() && j < b.size()) {
      if (a.get(i)[0] < b.get(j)[0]) {
        append(all, a.get(i++));
      } else {
        append(all, b.get(j++));
      }
    }
    while (i < a.size()) {
      append(all, a.get(i++));
    }
    while (j < b.size()) {
      append(all, b.get(j++));
    }
    return new Intervals(all);
  }

  private static void append(List<int[]> out, int[] next) {
    int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
    if (last == null || next[0] > last[1] + 1) {
      out.add(new int[] {next[0], next[1]});
    } else if (last[1] < next[1]) {
      last[1] = next[1];
    }
  }

  /** How many indexes the intervals hold. */
  int total() {
    int n = 0;
    for (int[] iv : intervals) {
      n += iv[1] - iv[0] + 1;
    }
    return n;
  }

  /** Whether {@code index} is in an interval. */
  boolean has(int index) {
    for (int[] iv : intervals) {
      if (iv[0] <= index && index <= iv[1]) {
        return true;
      }
    }
    return false;
  }

  boolean isEmpty() {
    return intervals.isEmpty();
  }

  /** kube's {@code matchSucceededIndexesRule}: the overlap with {@code succeeded} suffices. */
  boolean matchedBy(Intervals succeeded, long succeededCount) {
    int contains = 0;
    for (int[] r : intervals) {
      for (int[] s : succeeded.intervals) {
        int overlap = Math.min(r[1], s[1]) - Math.max(r[0], s[0]) + 1;
        if (overlap > 0) {
          contains += overlap;
        }
      }
    }
    return contains == total() || succeededCount >= 0 && contains >= succeededCount;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int[] v : intervals) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(v[0]);
      if (v[1] > v[0]) {
        b.append(v[1] == v[0] + 1 ? ',' : '-').append(v[1]);
      }
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Intervals other && toString().equals(other.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
