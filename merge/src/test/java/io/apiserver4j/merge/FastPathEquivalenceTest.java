/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.internal.Comparer;
import io.apiserver4j.merge.internal.Merger;
import io.apiserver4j.merge.internal.SmdValues;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts of the walkers (merging a strictly valid value onto nothing, pairwise list
 * merging, equality derived from the comparison) give the same results as the full algorithms,
 * on random values of a schema with every kind of container.
 */
class FastPathEquivalenceTest {
  private static final Schema SCHEMA = Schema.fromSmdYaml("""
      types:
      - name: root
        map:
          fields:
          - name: s
            type:
              scalar: string
          - name: num
            type:
              scalar: numeric
          - name: set
            type:
              list:
                elementType:
                  scalar: string
                elementRelationship: associative
          - name: items
            type:
              list:
                elementType:
                  namedType: root
                elementRelationship: associative
                keys: [s]
          - name: atomicList
            type:
              list:
                elementType:
                  scalar: numeric
                elementRelationship: atomic
          - name: map
            type:
              map:
                elementType:
                  namedType: root
          - name: atomicMap
            type:
              map:
                elementType:
                  scalar: string
                elementRelationship: atomic
      """);
  private static final ParseableType ROOT = SCHEMA.type("root");

  @Test
  void shortcutsAgreeWithTheFullWalks() {
    Random r = new Random(42);
    int checked = 0;
    int equalPairs = 0;
    int reordered = 0;
    for (int i = 0; i < 5000; i++) {
      Value lhs = struct(r, 3);
      Value rhs = r.nextInt(4) == 0 ? mutate(r, lhs) : struct(r, 3);
      TypedValue l = ROOT.fromValueUnvalidated(lhs);
      if (!l.validate(Duplicates.ALLOW).isEmpty()) {
        continue;
      }
      boolean rhsStrict = ROOT.fromValueUnvalidated(rhs).validate(Duplicates.REJECT).isEmpty();
      Object slow = Merger.merge(l.node(), lhs, rhs, false);
      Object fast = Merger.merge(l.node(), lhs, rhs, rhsStrict);
      assertThat(fast).as("merge of %s and %s", lhs, rhs).isEqualTo(slow);
      if (rhsStrict) {
        Object onNothing = Merger.merge(l.node(), Value.nullValue(), rhs, true);
        assertThat(onNothing).isEqualTo(Merger.merge(l.node(), Value.nullValue(), rhs, false));
      }
      Object c = Comparer.compare(l.node(), lhs, rhs);
      if (c instanceof Comparer.Result res) {
        assertThat(res.exactlyEqual()).as("exact equality of %s and %s", lhs, rhs)
            .isEqualTo(lhs.equals(rhs));
        assertThat(res.smdEqual()).as("SMD equality of %s and %s", lhs, rhs)
            .isEqualTo(SmdValues.equal(lhs, rhs));
        equalPairs += res.exactlyEqual() ? 1 : 0;
        reordered += res.comparison().isSame() && !res.exactlyEqual() ? 1 : 0;
      }
      checked++;
    }
    assertThat(checked).isGreaterThan(1000);
    assertThat(equalPairs).isGreaterThan(20);
    assertThat(reordered).isGreaterThan(5);
  }

  private static Value struct(Random r, int depth) {
    MapValue.Builder b = MapValue.builder();
    if (r.nextBoolean()) {
      b.put("s", Value.of(word(r)));
    }
    if (r.nextInt(3) == 0) {
      b.put("num", r.nextBoolean() ? Value.of((long) r.nextInt(3)) : Value.of((double) r.nextInt(3)));
    }
    if (r.nextInt(3) == 0) {
      ListValue.Builder l = ListValue.builder();
      for (int i = r.nextInt(4); i > 0; i--) {
        l.add(Value.of(word(r)));
      }
      b.put("set", l.build());
    }
    if (depth > 0 && r.nextInt(3) == 0) {
      ListValue.Builder l = ListValue.builder();
      for (int i = r.nextInt(4); i > 0; i--) {
        MapValue item = (MapValue) struct(r, depth - 1);
        l.add(item.with("s", Value.of(word(r))));
      }
      b.put("items", l.build());
    }
    if (r.nextInt(4) == 0) {
      b.put("atomicList", ListValue.of(java.util.List.of(Value.of((long) r.nextInt(2)))));
    }
    if (depth > 0 && r.nextInt(4) == 0) {
      b.put("map", MapValue.ofEntries(word(r), struct(r, depth - 1)));
    }
    if (r.nextInt(5) == 0) {
      b.put("atomicMap", r.nextBoolean() ? MapValue.empty() : MapValue.ofEntries(word(r), Value.of(word(r))));
    }
    if (r.nextInt(10) == 0) {
      b.put("map", Value.nullValue());
    }
    return b.build();
  }

  /** A copy with small changes, so that equal and nearly equal pairs are common. */
  private static Value mutate(Random r, Value v) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder();
      for (int i = 0; i < m.size(); i++) {
        if (r.nextInt(8) != 0) {
          b.put(m.keyAt(i), mutate(r, m.valueAt(i)));
        }
      }
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder();
      int n = l.size();
      boolean reverse = r.nextInt(2) == 0;
      for (int i = 0; i < n; i++) {
        b.add(mutate(r, l.get(reverse ? n - 1 - i : i)));
      }
      return b.build();
    }
    return r.nextInt(10) == 0 ? Value.of(word(r)) : v;
  }

  private static String word(Random r) {
    return String.valueOf((char) ('a' + r.nextInt(4)));
  }
}
