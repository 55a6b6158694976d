/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expressions from kube's CEL library tests (k8s.io/apiserver/pkg/cel/library). */
class CelProgramTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "self.size <= self.max | {\"size\": 3, \"max\": 10} | true",
      "self.size <= self.max | {\"size\": 20, \"max\": 10} | false",
      "'abc 123'.find('[0-9]+') == '123' | {} | true",
      "'abc'.find('[0-9]+') == '' | {} | true",
      "'123 abc 456'.findAll('[0-9]+') == ['123', '456'] | {} | true",
      "'123 abc 456'.findAll('[0-9]+', 1) == ['123'] | {} | true",
      "[1, 2, 3].isSorted() | {} | true",
      "['b', 'a'].isSorted() | {} | false",
      "[1, 2, 3].sum() == 6 | {} | true",
      "[1.5, 2.5].sum() == 4.0 | {} | true",
      "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 | {} | true",
      "[1, 2, 2, 3].indexOf(2) == 1 && [1, 2, 2, 3].lastIndexOf(2) == 2 | {} | true",
      "'hello'.startsWith('he') && 'a,b'.split(',') == ['a', 'b'] | {} | true",
      "'  x '.trim() == 'x' && 'abc'.upperAscii() == 'ABC' | {} | true",
      "sets.contains([1, 2, 3], [1, 2]) | {} | true",
      "self.all(k, v, v > 0) | {\"a\": 1, \"b\": 2} | true",
      "(has(self.x) ? self.x : 'none') == 'none' | {} | true",
      "self.?x.orValue(5) == 5 | {} | true",
      "'abc'.matches('^a') | {} | true",
      "self.l == ['a', 'b'] && self.m == {'x': 1} && self.m.exists(k, k == 'x') | {\"l\": [\"a\", \"b\"], \"m\": {\"x\": 1}} | true",
      "self == self && size(self.l) == 2 && 'b' in self.l && 'x' in self.m | {\"l\": [\"a\", \"b\"], \"m\": {\"x\": 1}} | true",
      "self.l.map(x, x + '!') == ['a!', 'b!'] && self.l.filter(x, x == 'a').size() == 1 | {\"l\": [\"a\", \"b\"]} | true",
  })
  void evaluatesAsKube(String expression, String self, String expected) {
    CelProgram p = CelProgram.compile(expression, List.of("self"));
    Value result = p.evaluate(Map.of("self", Json.read(self)));
    assertThat(Json.write(result)).isEqualTo(expected.replace('\'', '"'));
  }

  @Test
  void compileErrorsAreReported() {
    assertThatThrownBy(() -> CelProgram.compile("self.size <=", List.of("self")))
        .isInstanceOf(CelException.class)
        .satisfies(e -> assertThat(((CelException) e).kind()).isEqualTo(CelException.Kind.COMPILE));
    assertThatThrownBy(() -> CelProgram.compile("nope == 1", List.of("self")))
        .hasMessageContaining("undeclared reference to 'nope'");
  }

  @Test
  void undefinedFieldsAreCompileErrorsAsInCelGo() {
    CelObjectType object = new CelObjectType() {
      @Override
      public Optional<CelObjectType> field(String name) {
        return name.equals("size") ? Optional.of(CelObjectType.dynamic()) : Optional.empty();
      }

      @Override
      public boolean open() {
        return false;
      }
    };
    assertThatThrownBy(() -> CelProgram.compile("self.sizee > 1 && has(self.size)",
        List.of("self"), List.of(), Map.of("self", object)))
        .isInstanceOf(CelException.class)
        .hasMessage("ERROR: <input>:1:5: undefined field 'sizee'\n | self.sizee > 1 &&"
            + " has(self.size)\n | ....^");
    assertThatThrownBy(() -> CelProgram.compile("has(self.nope)", List.of("self"), List.of(),
        Map.of("self", object))).hasMessageStartingWith("ERROR: <input>:1:4: undefined field 'nope'");
    assertThat(CelProgram.compile("self.size.anything > 1 && self.all(x, x.y)", List.of("self"),
        List.of(), Map.of("self", object)).references("self")).isTrue();
  }

  @Test
  void transitionRulesAreRecognised() {
    assertThat(CelProgram.compile("self == oldSelf", List.of("self", "oldSelf"))
        .references("oldSelf")).isTrue();
    assertThat(CelProgram.compile("self == 'oldSelf'", List.of("self", "oldSelf"))
        .references("oldSelf")).isFalse();
  }

  @Test
  void optionalOldSelf() {
    CelProgram p = CelProgram.compile("!oldSelf.hasValue() || self >= oldSelf.value()",
        List.of("self"), List.of("oldSelf"));
    assertThat(p.evaluate(Map.of("self", Value.of(1L)), Map.of("oldSelf", Optional.empty())))
        .isEqualTo(Value.of(true));
    assertThat(p.evaluate(Map.of("self", Value.of(1L)),
        Map.of("oldSelf", Optional.of(Value.of(2L))))).isEqualTo(Value.of(false));
  }

  @Test
  void comprehensionsAreBounded() {
    CelProgram p = CelProgram.compile(
        "self.all(a, self.all(b, self.all(c, self.all(d, a + b + c + d >= 0))))",
        List.of("self"));
    Value list = Value.list(java.util.stream.LongStream.range(0, 40).mapToObj(Value::of)
        .toList());
    assertThatThrownBy(() -> p.evaluate(Map.of("self", list)))
        .isInstanceOf(CelException.class);
  }

  @Test
  void runtimeErrorsAreEvaluationErrors() {
    CelProgram p = CelProgram.compile("self.missing == 1", List.of("self"));
    assertThatThrownBy(() -> p.evaluate(Map.of("self", Json.read("{}"))))
        .isInstanceOf(CelException.class)
        .hasMessageContaining("missing");
  }
}
