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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Set algebra checked against a naive model: a sorted set of paths. */
class FieldSetTest {
  private static final PathElement[] ALPHABET = {
      field("a"), field("b"), field("c"), key("name", Value.of("x")), key("name", Value.of("y")),
      value(Value.of(1)), value(Value.of("s")), index(0), index(1)};

  static Stream<Long> seeds() {
    return IntStream.range(0, 300).mapToObj(i -> (long) i * 7919 + 13);
  }

  private static FieldPath randomPath(Random r) {
    int len = 1 + r.nextInt(4);
    PathElement[] p = new PathElement[len];
    for (int i = 0; i < len; i++) {
      p[i] = ALPHABET[r.nextInt(i == 0 ? 3 : ALPHABET.length)];
    }
    return FieldPath.of(p);
  }

  private static TreeSet<FieldPath> randomModel(Random r) {
    TreeSet<FieldPath> m = new TreeSet<>();
    int n = r.nextInt(4) == 0 ? 0 : r.nextInt(25);
    for (int i = 0; i < n; i++) {
      m.add(randomPath(r));
    }
    return m;
  }

  private static FieldSet build(TreeSet<FieldPath> model, Random r) {
    List<FieldPath> shuffled = new ArrayList<>(model);
    Collections.shuffle(shuffled, r);
    switch (r.nextInt(3)) {
      case 0:
        return FieldSet.of(shuffled);
      case 1: {
        FieldSet.Builder b = FieldSet.builder();
        shuffled.forEach(b::insert);
        return b.build();
      }
      default: {
        FieldSet s = FieldSet.empty();
        for (FieldPath p : shuffled) {
          s = s.union(FieldSet.of(p));
        }
        return s;
      }
    }
  }

  private static void assertMatches(FieldSet actual, TreeSet<FieldPath> model) {
    assertThat(actual.paths()).containsExactlyElementsOf(model);
    assertThat(actual.size()).isEqualTo(model.size());
    assertThat(actual.isEmpty()).isEqualTo(model.isEmpty());
    FieldSet rebuilt = FieldSet.of(model);
    assertThat(actual).isEqualTo(rebuilt);
    assertThat(actual.hashCode()).isEqualTo(rebuilt.hashCode());
    assertNoEmptyChildren(actual);
  }

  private static void assertNoEmptyChildren(FieldSet s) {
    for (int i = 0; i < s.childCount(); i++) {
      assertThat(s.childAt(i).isEmpty()).isFalse();
      assertNoEmptyChildren(s.childAt(i));
    }
  }

  private static void check(long seed, BiFunction<FieldSet, FieldSet, FieldSet> op,
      BiFunction<TreeSet<FieldPath>, TreeSet<FieldPath>, TreeSet<FieldPath>> model) {
    Random r = new Random(seed);
    TreeSet<FieldPath> ma = randomModel(r);
    TreeSet<FieldPath> mb = r.nextInt(5) == 0 ? new TreeSet<>(ma) : randomModel(r);
    FieldSet a = build(ma, r);
    FieldSet b = build(mb, r);
    assertMatches(a, ma);
    assertMatches(op.apply(a, b), model.apply(ma, mb));
    // operands are untouched
    assertMatches(a, ma);
    assertMatches(b, mb);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void union(long seed) {
    check(seed, FieldSet::union, (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>(a);
      out.addAll(b);
      return out;
    });
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void intersection(long seed) {
    check(seed, FieldSet::intersection, (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>(a);
      out.retainAll(b);
      return out;
    });
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void difference(long seed) {
    check(seed, FieldSet::difference, (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>(a);
      out.removeAll(b);
      return out;
    });
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void recursiveDifferenceRemovesPathsAndEverythingBelow(long seed) {
    check(seed, FieldSet::recursiveDifference, (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>();
      for (FieldPath p : a) {
        boolean covered = false;
        for (FieldPath q : b) {
          covered |= p.startsWith(q);
        }
        if (!covered) {
          out.add(p);
        }
      }
      return out;
    });
    check(seed, FieldSet::exclude, (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>(a);
      out.removeIf(p -> b.stream().anyMatch(p::startsWith));
      return out;
    });
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void leavesAreThePathsWithNothingBelow(long seed) {
    check(seed, (a, b) -> a.leaves(), (a, b) -> {
      TreeSet<FieldPath> out = new TreeSet<>();
      for (FieldPath p : a) {
        if (a.stream().noneMatch(q -> q.size() > p.size() && q.startsWith(p))) {
          out.add(p);
        }
      }
      return out;
    });
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void containsAndWalkingAgreeWithModel(long seed) {
    Random r = new Random(seed);
    TreeSet<FieldPath> model = randomModel(r);
    FieldSet s = build(model, r);
    for (int i = 0; i < 40; i++) {
      FieldPath p = randomPath(r);
      assertThat(s.contains(p)).isEqualTo(model.contains(p));
    }
    for (FieldPath p : model) {
      assertThat(s.contains(p)).isTrue();
    }
    // walking API: members + children reconstruct every path
    List<FieldPath> walked = new ArrayList<>();
    walk(s, FieldPath.empty(), walked);
    assertThat(new TreeSet<>(walked)).isEqualTo(model);
    assertThat(walked).hasSize(model.size());
    // prefixing and taking the child back are inverse
    PathElement e = ALPHABET[r.nextInt(ALPHABET.length)];
    FieldSet prefixed = s.withPrefix(e);
    assertThat(prefixed.size()).isEqualTo(s.size());
    assertThat(prefixed.childOrEmpty(e)).isEqualTo(s);
    assertThat(prefixed.paths()).allMatch(p -> p.get(0).equals(e));
    FieldPath twoStep = FieldPath.of(field("x"), e);
    assertThat(s.prefixedBy(twoStep).paths())
        .containsExactlyElementsOf(model.stream().map(twoStep::append).toList());
  }

  private static void walk(FieldSet s, FieldPath prefix, List<FieldPath> out) {
    for (PathElement m : s.members()) {
      assertThat(s.hasMember(m)).isTrue();
      out.add(prefix.append(m));
    }
    assertThat(s.members()).isSorted();
    assertThat(s.childElements()).isSorted();
    for (FieldSet.Child c : s.children()) {
      assertThat(s.hasChild(c.element())).isTrue();
      assertThat(s.child(c.element())).contains(c.set());
      walk(c.set(), prefix.append(c.element()), out);
    }
  }

  @Test
  void emptyPathIsNeverAMember() {
    FieldSet s = FieldSet.of(FieldPath.empty(), FieldPath.of(field("a")));
    assertThat(s.size()).isEqualTo(1);
    assertThat(s.contains(FieldPath.empty())).isFalse();
  }

  @Test
  void nodeCanBeMemberAndParent() {
    FieldSet s = FieldSet.of(FieldPath.of(field("a")), FieldPath.of(field("a"), field("b")));
    assertThat(s.members()).containsExactly(field("a"));
    assertThat(s.childElements()).containsExactly(field("a"));
    assertThat(s.leaves().paths()).containsExactly(FieldPath.of(field("a"), field("b")));
    assertThat(s.toString()).isEqualTo(".a\n.a.b");
    assertThat(s.difference(FieldSet.of(FieldPath.of(field("a")))).paths())
        .containsExactly(FieldPath.of(field("a"), field("b")));
    assertThat(s.difference(FieldSet.of(FieldPath.of(field("a"), field("b")))).paths())
        .containsExactly(FieldPath.of(field("a")));
    assertThat(s.recursiveDifference(FieldSet.of(FieldPath.of(field("a")))).isEmpty()).isTrue();
  }

  @Test
  void unchangedOperandsAndSubtreesAreShared() {
    FieldSet big = FieldSet.of(FieldPath.of(field("a"), field("x")), FieldPath.of(field("b")),
        FieldPath.of(field("c"), field("y"), field("z")));
    FieldSet small = FieldSet.of(FieldPath.of(field("a"), field("x")));
    assertThat(big.union(small)).isSameAs(big);
    assertThat(small.union(big)).isSameAs(big);
    assertThat(big.union(FieldSet.empty())).isSameAs(big);
    assertThat(big.intersection(big)).isSameAs(big);
    assertThat(big.difference(FieldSet.of(FieldPath.of(field("q"))))).isSameAs(big);
    assertThat(big.recursiveDifference(FieldSet.empty())).isSameAs(big);
    assertThat(small.leaves()).isSameAs(small);
    FieldSet changed = big.difference(FieldSet.of(FieldPath.of(field("b"))));
    assertThat(changed.child(field("c")).orElseThrow()).isSameAs(big.child(field("c")).orElseThrow());
    assertThat(changed.child(field("a")).orElseThrow()).isSameAs(big.child(field("a")).orElseThrow());
    FieldSet grown = big.union(FieldSet.of(FieldPath.of(field("d"))));
    assertThat(grown.child(field("c")).orElseThrow()).isSameAs(big.child(field("c")).orElseThrow());
  }

  @Test
  void builderAddsMembersChildrenAndSets() {
    FieldSet child = FieldSet.of(FieldPath.of(field("x")));
    FieldSet s = FieldSet.builder()
        .addMember(field("b"))
        .addChild(field("a"), child)
        .addChild(field("a"), FieldSet.of(FieldPath.of(field("y"))))
        .addChild(field("e"), FieldSet.empty())
        .insert(FieldPath.of(field("a"), field("z"), field("w")))
        .addAll(FieldSet.of(FieldPath.of(field("c"))))
        .build();
    assertThat(s.toString()).isEqualTo(".a.x\n.a.y\n.a.z.w\n.b\n.c");
    assertThat(s.hasChild(field("e"))).isFalse();
    FieldSet.Builder b = FieldSet.builder();
    b.build();
    assertThatThrownBy(() -> b.addMember(field("a"))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already built");
  }

  @Test
  void filters() {
    FieldSet s = FieldSet.of(FieldPath.of(field("spec"), field("a")),
        FieldPath.of(field("status"), field("b")), FieldPath.of(field("status")));
    FieldSet status = FieldSet.of(FieldPath.of(field("status")));
    assertThat(s.filter(FieldSetFilter.exclude(status)).paths())
        .containsExactly(FieldPath.of(field("spec"), field("a")));
    assertThat(s.filter(FieldSetFilter.none())).isSameAs(s);
    assertThat(s.exclude(status)).isEqualTo(s.filter(FieldSetFilter.exclude(status)));
  }

  @Test
  void viewsAreUnmodifiable() {
    FieldSet s = FieldSet.of(FieldPath.of(field("a")), FieldPath.of(field("b"), field("c")));
    assertThatThrownBy(() -> s.members().add(field("z")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.childElements().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.paths().clear()).isInstanceOf(UnsupportedOperationException.class);
    Iterable<FieldPath> it = s;
    List<String> seen = new ArrayList<>();
    it.forEach(p -> seen.add(p.toString()));
    assertThat(seen).containsExactly(".a", ".b.c");
    assertThat(s.memberCount()).isEqualTo(1);
    assertThat(s.memberAt(0)).isEqualTo(field("a"));
    assertThat(s.childElementAt(0)).isEqualTo(field("b"));
    assertThat(FieldSet.empty().child(field("a"))).isEmpty();
  }
}
