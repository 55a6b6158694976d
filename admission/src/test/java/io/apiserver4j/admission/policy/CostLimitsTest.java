/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a policy's evaluations need to count costs: by the extent of the request's values. */
class CostLimitsTest {
  private static final List<String> VARS = PolicyActivation.declared(false, true);

  private static PolicyExpression expr(String e) {
    return PolicyExpression.compile(e, VARS);
  }

  @Test
  void extentIsTheLongestStringListOrMap() {
    assertThat(CostLimits.extent(Yaml.read("{a: [1, 2, 3], b: {c: abcdefg}}"), null)).isEqualTo(7);
    assertThat(CostLimits.extent(Yaml.read("{a: [1, 2, 3, 4, 5, 6, 7, 8, 9]}"))).isEqualTo(9);
    assertThat(CostLimits.extent(Yaml.read("{a-very-long-key-indeed: 1}"))).isEqualTo(22);
    assertThat(CostLimits.extent()).isZero();
  }

  @Test
  void constantCostsAreNeverCounted() {
    assertThat(CostLimits.untrackedUpTo(List.of(expr("1 + 2 == 3")))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void iterationsOverTheObjectAreCountedOnlyPastAnExtent() {
    // unbounded labels could cost more than kube's per-call limit; a small object cannot
    long upTo = CostLimits.untrackedUpTo(List.of(
        expr("object.metadata.labels.all(k, object.metadata.labels.all(j, j.size() < k.size()))")));
    assertThat(upTo).isGreaterThan(100).isLessThan(3L * 1024 * 1024);
  }

  @Test
  void derivedValuesOfUnknownSizeAreAlwaysCounted() {
    assertThat(CostLimits.untrackedUpTo(List.of(expr(
        "variables.names.all(a, variables.names.all(b, a.size() <= b.size() + 1000))"))))
        .isEqualTo(-1);
  }
}
