/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Static estimates and runtime costs of {@link CelProgram}, with kube's numbers (cel-go's cost
 * model with Kubernetes' estimators; apiextensions-apiserver compilation_test.go and
 * validation_test.go).
 */
class CelCostTest {

  /** A list of doubles of at most {@code max} items (kube: number array with maxItems). */
  private record NumberList(long max) implements CelObjectType {
    @Override
    public Optional<CelObjectType> field(String name) {
      return Optional.empty();
    }

    @Override
    public boolean open() {
      return true;
    }

    @Override
    public Optional<CelObjectType> element() {
      return Optional.of(NUMBER);
    }

    @Override
    public ValueKind kind() {
      return ValueKind.LIST;
    }

    @Override
    public OptionalLong maxElements() {
      return OptionalLong.of(max);
    }
  }

  private static final CelObjectType NUMBER = new CelObjectType() {
    @Override
    public Optional<CelObjectType> field(String name) {
      return Optional.empty();
    }

    @Override
    public boolean open() {
      return true;
    }

    @Override
    public ValueKind kind() {
      return ValueKind.DOUBLE;
    }

    @Override
    public OptionalLong maxElements() {
      return OptionalLong.of(0);
    }

    @Override
    public Scalar scalar() {
      return Scalar.DOUBLE;
    }
  };

  private static CelProgram onList(String rule, long max) {
    return CelProgram.compile(rule, List.of("self"), List.of(),
        Map.of("self", new NumberList(max)));
  }

  @Test
  void estimatesFollowTheDeclaredSizes() {
    // kube: "number array with all" with maxItems 10 costs 32; O(n^2) 352, O(n^3) 3552
    assertThat(onList("self.all(x, true)", 10).estimatedCost().max()).isEqualTo(32);
    assertThat(onList("self.all(x, self.all(y, true))", 10).estimatedCost().max())
        .isEqualTo(352);
    assertThat(onList("self.all(x, self.all(y, self.all(z, true)))", 10).estimatedCost().max())
        .isEqualTo(3552);
    // "set maxLength greater than estimated maxLength": 3*1024*2048 items
    assertThat(onList("self.all(x, x == 0.0)", 3 * 1024 * 2048).estimatedCost().max())
        .isEqualTo(25165826);
  }

  @Test
  void untypedVariablesHaveUnboundedSizes() {
    CelCostEstimate e = CelProgram.compile("self.all(x, x > 0)", List.of("self"))
        .estimatedCost();
    assertThat(e.max()).isEqualTo(Long.MAX_VALUE);
    assertThat(CelProgram.compile("1 + 2 == 3", List.of()).estimatedCost())
        .isEqualTo(new CelCostEstimate(2, 2));
  }

  @Test
  void evaluationCountsKubesRuntimeCost() {
    // kube: "cost for extended lib calculated correctly"
    assertThat(CelProgram.compile("[1,2,3,4].isSorted()", List.of())
        .evaluate(Map.of(), Map.of(), 1_000_000).cost()).isEqualTo(4);
    assertThat(CelProgram.compile("size('abc 123 def 123'.split(' ')) > 0", List.of())
        .evaluate(Map.of(), Map.of(), 1_000_000).cost()).isEqualTo(5);
    // "messageExpression budget (str concat)": self, .str, + of 13 characters
    CelResult r = CelProgram.compile("\"str1 \" + self.str", List.of("self"))
        .evaluate(Map.of("self", Yaml.read("{str: a string}")), Map.of(), 1_000_000);
    assertThat(r.value()).isEqualTo(Value.of("str1 a string"));
    assertThat(r.cost()).isEqualTo(4);
  }

  @Test
  void aComprehensionCostsPerIteration() {
    // per item: @not_strictly_false(1) + accumulator(1) + x(1) + >(1) + accumulator(1) in &&;
    // plus self(1) and the result accumulator (1)
    CelResult r = onList("self.all(x, x > 0.0)", 10)
        .evaluate(Map.of("self", Yaml.read("[1.0, 2.0, 3.0]")), Map.of(), 1_000_000);
    assertThat(r.value()).isEqualTo(Value.of(true));
    assertThat(r.cost()).isEqualTo(2 + 3 * 5);
  }

  @Test
  void pastTheLimitEvaluationIsCancelled() {
    CelProgram p = CelProgram.compile("\"string 1\" + \"string 2\" + \"string 3\"", List.of());
    assertThat(p.evaluate(Map.of(), Map.of(), 5).cost()).isEqualTo(5);
    assertThatThrownBy(() -> p.evaluate(Map.of(), Map.of(), 4))
        .isInstanceOfSatisfying(CelException.class, e -> {
          assertThat(e.kind()).isEqualTo(CelException.Kind.COST_LIMIT);
          assertThat(e.getMessage())
              .isEqualTo("operation cancelled: actual cost limit exceeded");
          assertThat(e.cost()).isEqualTo(5);
        });
  }

  @Test
  void failuresCarryTheCostSpent() {
    // kube: "runtime cost preserved if messageExpression fails during evaluation" costs 3
    CelProgram p = CelProgram.compile("\"str1 \" + [\"a\", \"b\", \"c\", \"d\"][4]", List.of());
    assertThatThrownBy(() -> p.evaluate(Map.of(), Map.of(), 1_000_000))
        .isInstanceOfSatisfying(CelException.class, e -> {
          assertThat(e.kind()).isEqualTo(CelException.Kind.EVALUATION);
          assertThat(e.cost()).isEqualTo(3);
        });
  }
}
