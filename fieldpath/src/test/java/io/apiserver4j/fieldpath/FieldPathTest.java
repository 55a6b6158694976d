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

import io.apiserver4j.core.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldPathTest {

  @Test
  void pathStringsMatchSmd() {
    assertThat(FieldPath.of(field("spec"), field("containers"), key("name", Value.of("nginx")),
        field("image")).toString()).isEqualTo(".spec.containers[name=\"nginx\"].image");
    assertThat(FieldPath.of(field("set"), value(Value.of("b"))).toString()).isEqualTo(".set[=\"b\"]");
    assertThat(FieldPath.of(field("list"), index(0)).toString()).isEqualTo(".list[0]");
    assertThat(FieldPath.empty().toString()).isEmpty();
    assertThat(FieldPath.of(field("a.b"), field("")).toString()).isEqualTo(".a.b.");
  }

  @Test
  void orderIsLexicographicWithPrefixFirst() {
    FieldPath a = FieldPath.of(field("a"));
    FieldPath ab = a.append(field("b"));
    FieldPath ak = a.append(key("k", Value.of(1)));
    FieldPath b = FieldPath.of(field("b"));
    assertThat(List.of(b, ak, ab, a).stream().sorted().toList()).containsExactly(a, ab, ak, b);
    assertThat(FieldPath.empty()).isLessThan(a);
  }

  @Test
  void immutableAccessors() {
    FieldPath p = FieldPath.of(List.of(field("a"), index(1)));
    assertThat(p.size()).isEqualTo(2);
    assertThat(p.get(1)).isEqualTo(index(1));
    assertThat(p.isEmpty()).isFalse();
    assertThat(p.last()).contains(index(1));
    assertThat(FieldPath.empty().last()).isEmpty();
    assertThat(p.parent()).isEqualTo(FieldPath.of(field("a")));
    assertThat(p.parent().parent()).isEqualTo(FieldPath.empty());
    assertThat(p.startsWith(FieldPath.of(field("a")))).isTrue();
    assertThat(p.startsWith(FieldPath.of(field("b")))).isFalse();
    assertThat(p.append(FieldPath.of(field("x"), field("y"))).toString()).isEqualTo(".a[1].x.y");
    assertThatThrownBy(() -> p.elements().add(field("c")))
        .isInstanceOf(UnsupportedOperationException.class);
    PathElement[] arr = {field("a")};
    FieldPath q = FieldPath.of(arr);
    arr[0] = field("changed");
    assertThat(q.toString()).isEqualTo(".a");
    assertThat(q.serializedElements()).containsExactly("f:a");
  }

  @Test
  void equalityFollowsElements() {
    assertThat(FieldPath.of(field("a"), value(Value.of(1))))
        .isEqualTo(FieldPath.of(field("a"), value(Value.of(1.0))))
        .hasSameHashCodeAs(FieldPath.of(field("a"), value(Value.of(1.0))));
    assertThat(FieldPath.of(field("a"))).isNotEqualTo(FieldPath.of(field("a"), field("b")));
    assertThatThrownBy(() -> FieldPath.of(field("a"), null)).isInstanceOf(NullPointerException.class)
        .hasMessage("elements[1]");
  }
}
