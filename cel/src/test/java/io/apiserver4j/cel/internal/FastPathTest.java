/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast path against cel-java: every expression of {@code fast-path-cases.yaml} with every
 * binding, evaluated by cel-java alone and by the fast path alone. The fast path may give up;
 * when it gives a result, cel-java must give the same (and no error). The public evaluation
 * (fast path, then cel-java) must give cel-java's result or error message.
 */
class FastPathTest {
  private static final List<String> VARIABLES = List.of("self", "other");

  private static MapValue cases() {
    try (InputStream in = FastPathTest.class.getResourceAsStream("fast-path-cases.yaml")) {
      return (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> expressions(String key) {
    List<String> out = new ArrayList<>();
    for (Value v : ((ListValue) cases().getOrNull(key)).items()) {
      out.add(((StringValue) v).value());
    }
    return out;
  }

  private static List<Map<String, Value>> bindings() {
    List<Map<String, Value>> out = new ArrayList<>();
    for (Value v : ((ListValue) cases().getOrNull("bindings")).items()) {
      out.add(((MapValue) v).asMap());
    }
    return out;
  }

  static Stream<Arguments> table() {
    List<Arguments> out = new ArrayList<>();
    List<String> all = new ArrayList<>(expressions("fast"));
    all.addAll(expressions("slow"));
    List<Map<String, Value>> bindings = bindings();
    for (String e : all) {
      for (int i = 0; i < bindings.size(); i++) {
        out.add(Arguments.of(e, i, bindings.get(i)));
      }
    }
    return out.stream();
  }

  /** cel-java's result, or its error as a string starting with "error: ". */
  private static Object reference(KubeEnvironment.Compiled c, Map<String, Value> bindings) {
    try {
      return c.interpret(bindings);
    } catch (CelException e) {
      return "error: " + e.getMessage();
    }
  }

  @ParameterizedTest(name = "{0} with binding {1}")
  @MethodSource("table")
  void fastPathAgreesWithCelJava(String expression, int index, Map<String, Value> bindings) {
    KubeEnvironment.Compiled c = KubeEnvironment.compile(expression, VARIABLES, List.of());
    Object expected = reference(c, bindings);
    Optional<Value> fast = c.evaluateFast(bindings);
    if (fast.isPresent()) {
      assertThat((Object) fast.get()).as("fast path result").isEqualTo(expected);
    }
    CelProgram program = CelProgram.compile(expression, VARIABLES);
    if (expected instanceof Value v) {
      assertThat(program.evaluate(bindings)).isEqualTo(v);
    } else {
      assertThatThrownBy(() -> program.evaluate(bindings))
          .isInstanceOf(CelException.class)
          .satisfies(e -> assertThat("error: " + e.getMessage()).isEqualTo(expected));
    }
  }

  @Test
  void theSubsetIsEvaluatedByTheFastPath() {
    Map<String, Value> first = bindings().get(0);
    for (String e : expressions("fast")) {
      KubeEnvironment.Compiled c = KubeEnvironment.compile(e, VARIABLES, List.of());
      assertThat(c.evaluateFast(first)).as(e).isPresent();
    }
  }

  @Test
  void expressionsOutsideTheSubsetAreNotTranslated() {
    for (String e : List.of("self.s.matches('^h')", "self.?x.orValue(1) == 1",
        "{'a': 1}.a == 1", "self.map.all(k, v, v > 0)", "type(self.n) == int",
        "1u == 1u", "int(self.f) == 1")) {
      assertThat(KubeEnvironment.compile(e, VARIABLES, List.of()).hasFastPath()).as(e).isFalse();
    }
  }

  @Test
  void comprehensionsOverTheLimitAreLeftToCelJava() {
    KubeEnvironment.Compiled c = KubeEnvironment.compile(
        "self.all(x, self.all(y, x == y || x != y))", VARIABLES, List.of());
    ListValue.Builder b = ListValue.builder(1001);
    for (long i = 0; i <= 1000; i++) {
      b.add(Value.of(i));
    }
    Map<String, Value> big = Map.of("self", b.build());
    // 1001 * 1001 + 1001 iterations exceed the limit of 1,000,000
    assertThat(c.evaluateFast(big)).isEmpty();
    assertThatThrownBy(() -> c.interpret(big)).isInstanceOf(CelException.class);
  }
}
