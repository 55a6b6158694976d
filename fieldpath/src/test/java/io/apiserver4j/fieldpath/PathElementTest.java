/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static io.apiserver4j.fieldpath.PathElement.field;
import static io.apiserver4j.fieldpath.PathElement.index;
import static io.apiserver4j.fieldpath.PathElement.key;
import static io.apiserver4j.fieldpath.PathElement.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PathElementTest {

  private static Value v(String json) {
    return Json.read(json);
  }

  @Test
  void kindsAreOrderedFieldKeyValueIndex() {
    List<PathElement> expected = List.of(
        field("a"), field("b"),
        key("name", v("\"a\"")), key("name", v("\"b\"")),
        value(v("1")), value(v("\"a\"")),
        index(0), index(7));
    List<PathElement> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(1));
    Collections.sort(shuffled);
    assertThat(shuffled).containsExactlyElementsOf(expected);
    assertThat((PathElement) field("zzz")).isLessThan(key("a", v("1")));
    assertThat((PathElement) key("z", v("null"))).isLessThan(value(v("0")));
    assertThat((PathElement) value(v("null"))).isLessThan(index(-5));
  }

  @Test
  void fieldNamesCompareByCodePointLikeGo() {
    // U+FF5E is below U+1F680 in code points but above its surrogates as UTF-16 chars.
    assertThat(field("\uFF5E")).isLessThan(field("\uD83D\uDE80"));
    assertThat(field("B")).isLessThan(field("a"));
    assertThat(field("a")).isLessThan(field("aa"));
    assertThat(field("")).isLessThan(field("a"));
  }

  @Test
  void keysCompareFieldByFieldNameThenValueThenLength() {
    Key a1 = key(new KeyField("a", v("1")));
    Key a2 = key(new KeyField("a", v("2")));
    Key b0 = key(new KeyField("b", v("0")));
    Key a1b0 = key(new KeyField("a", v("1")), new KeyField("b", v("0")));
    assertThat(a1).isLessThan(a2);
    assertThat(a2).isLessThan(b0);
    assertThat(a1).isLessThan(a1b0);
    assertThat(a1b0).isLessThan(a2);
    assertThat(a1.compareTo(key("a", v("1")))).isZero();
  }

  @Test
  void keyFieldsAreSortedByNameStably() {
    Key k = key(new KeyField("protocol", v("\"TCP\"")), new KeyField("port", v("80")));
    assertThat(k.fields()).extracting(KeyField::name).containsExactly("port", "protocol");
    assertThat(k).isEqualTo(key(new KeyField("port", v("80")), new KeyField("protocol", v("\"TCP\""))));
    Key dup = key(new KeyField("b", v("2")), new KeyField("a", v("1")), new KeyField("b", v("1")));
    assertThat(dup.fields()).extracting(f -> f.value().toString())
        .containsExactly("1", "2", "1");
    assertThatThrownBy(() -> dup.fields().add(new KeyField("c", v("1"))))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void setMembersUseSmdValueOrder() {
    List<PathElement> expected = List.of(
        value(v("-1")), value(v("1.5")), value(v("2")), value(v("\"a\"")), value(v("\"b\"")),
        value(v("false")), value(v("true")), value(v("[1]")), value(v("[1,2]")),
        value(v("{\"a\":1}")), value(v("null")));
    List<PathElement> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(7));
    Collections.sort(shuffled);
    assertThat(shuffled).containsExactlyElementsOf(expected);
  }

  @Test
  void numericallyEqualIntAndFloatAreTheSameElementAsInSmd() {
    PathElement i = value(Value.of(3));
    PathElement f = value(Value.of(3.0));
    assertThat(i).isEqualTo(f);
    assertThat(i.hashCode()).isEqualTo(f.hashCode());
    assertThat(i.compareTo(f)).isZero();
    assertThat(key("port", Value.of(80))).isEqualTo(key("port", Value.of(80.0)));
    assertThat(value(Value.of(-0.0))).isEqualTo(value(Value.of(0)));
    assertThat(value(v("[1,{\"a\":2}]"))).isEqualTo(value(v("[1.0,{\"a\":2.0}]")));
    assertThat(value(v("[1,{\"a\":2}]")).hashCode()).isEqualTo(value(v("[1.0,{\"a\":2.0}]")).hashCode());
    assertThat(value(Value.of("3"))).isNotEqualTo(i);
  }

  @Test
  void indicesCompareNumerically() {
    assertThat(index(2)).isLessThan(index(10));
    assertThat(index(-1)).isLessThan(index(0));
    assertThat(index(2147483648L).index()).isEqualTo(2147483648L);
    assertThat(index(3).asInt()).isEqualTo(3);
    assertThatThrownBy(() -> index(2147483648L).asInt()).isInstanceOf(ArithmeticException.class);
  }

  @Test
  void kindAndPathStrings() {
    assertThat(field("spec").kind()).isEqualTo(PathElement.Kind.FIELD_NAME);
    assertThat(field("spec").toPathString()).isEqualTo(".spec");
    assertThat(key(new KeyField("name", v("\"x\"")), new KeyField("port", v("80"))).toPathString())
        .isEqualTo("[name=\"x\",port=80]");
    assertThat(value(v("\"b\"")).toPathString()).isEqualTo("[=\"b\"]");
    assertThat(value(v("1.5")).toPathString()).isEqualTo("[=1.5]");
    assertThat(value(v("1e6")).toPathString()).isEqualTo("[=1e+06]");
    assertThat(value(v("123456.5")).toPathString()).isEqualTo("[=123456.5]");
    assertThat(value(v("0.00001")).toPathString()).isEqualTo("[=1e-05]");
    assertThat(value(v("0.0001")).toPathString()).isEqualTo("[=0.0001]");
    assertThat(value(v("null")).toPathString()).isEqualTo("[=null]");
    assertThat(value(v("[1,\"a\"]")).toPathString()).isEqualTo("[=[1,\"a\"]]");
    assertThat(value(v("{\"b\":1,\"a\":true}")).toPathString()).isEqualTo("[=a=trueb=1]");
    assertThat(value(v("\"tab\\there\\u0001\\u00a0\"")).toPathString())
        .isEqualTo("[=\"tab\\there\\x01\\u00a0\"]");
    assertThat(index(4).toPathString()).isEqualTo("[4]");
    assertThat(key(List.of()).toPathString()).isEqualTo("[]");
  }

  @Test
  void nullsAreRejected() {
    assertThatThrownBy(() -> field(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("name");
    assertThatThrownBy(() -> new KeyField("a", null)).isInstanceOf(NullPointerException.class)
        .hasMessage("value");
    assertThatThrownBy(() -> value(null)).isInstanceOf(NullPointerException.class);
  }
}
