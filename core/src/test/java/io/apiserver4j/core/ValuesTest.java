/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {

  @Test
  void totalOrderFollowsStructuredMergeDiff() {
    List<Value> sorted = new ArrayList<>(List.of(
        Value.nullValue(), MapValue.empty(), ListValue.empty(), Value.of(true), Value.of("a"),
        Value.of(2), Value.of(1.5)));
    sorted.sort(null);
    assertThat(sorted).containsExactly(Value.of(1.5), Value.of(2), Value.of("a"), Value.of(true),
        ListValue.empty(), MapValue.empty(), Value.nullValue());
  }

  @Test
  void integersAndFloatsCompareNumericallyButStayUnequal() {
    assertThat(Value.of(1).compareTo(Value.of(1.5))).isNegative();
    assertThat(Value.of(2.5).compareTo(Value.of(2))).isPositive();
    assertThat(Value.of(1.0).compareTo(Value.of(1))).isNegative();
    assertThat(Value.of(1.0)).isNotEqualTo(Value.of(1));
  }

  @Test
  void listsAndMapsCompareLexicographically() {
    assertThat(Value.list(Value.of(1)).compareTo(Value.list(Value.of(1), Value.of(2)))).isNegative();
    assertThat(Value.list(Value.of(2)).compareTo(Value.list(Value.of(1), Value.of(2)))).isPositive();
    MapValue ab = MapValue.ofEntries("b", Value.of(1), "a", Value.of(1));
    MapValue ac = MapValue.ofEntries("a", Value.of(1), "c", Value.of(1));
    assertThat(ab.compareTo(ac)).isNegative();
    assertThat(ab.compareTo(MapValue.ofEntries("a", Value.of(1), "b", Value.of(1)))).isZero();
  }

  @Test
  void stringsCompareByCodePointLikeGo() {
    String supplementary = new String(Character.toChars(0x1F600));
    assertThat(Values.compareStrings("\uFFFF", supplementary)).isNegative();
    assertThat("\uFFFF".compareTo(supplementary)).isPositive();
  }

  @Test
  void mapCopiesLeaveTheOriginalUntouched() {
    MapValue m = MapValue.ofEntries("a", Value.of(1));
    MapValue n = m.with("b", Value.of(2)).without("a");
    assertThat(m.asMap()).containsOnlyKeys("a");
    assertThat(n.asMap()).containsOnlyKeys("b");
    MapValue.Builder b = MapValue.builder();
    for (int i = 0; i < 40; i++) {
      b.put("k" + i, Value.of(i));
    }
    MapValue large = b.remove("k3").build();
    assertThat(large.size()).isEqualTo(39);
    assertThat(large.getOrNull("k39")).isEqualTo(Value.of(39));
    assertThat(large.indexOf("k3")).isEqualTo(-1);
  }
}
