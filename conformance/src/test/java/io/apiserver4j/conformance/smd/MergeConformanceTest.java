/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.conformance.CaseOutcome;
import io.apiserver4j.conformance.Fixture;
import io.apiserver4j.core.ListValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every case of {@code ../shared/conformance/merge}, one dynamic test per case. */
class MergeConformanceTest {
  private final MergeSuite suite = new MergeSuite();

  @TestFactory
  Stream<DynamicNode> mergeCases() {
    List<DynamicNode> files = new ArrayList<>();
    for (Path file : SharedFixtures.files("merge")) {
      Fixture fixture = SharedFixtures.load(file);
      assertThat(suite.accepts(fixture)).as("merge suite accepts %s", file).isTrue();
      ListValue cases = suite.cases(fixture);
      List<DynamicTest> tests = new ArrayList<>();
      for (int i = 0; i < cases.size(); i++) {
        int index = i;
        tests.add(DynamicTest.dynamicTest(MergeSuite.caseName(i, cases.get(i)), () -> {
          CaseOutcome outcome = suite.runCase(fixture.name(), index, cases.get(index));
          assertThat(outcome.failure()).as(outcome.toString()).isEmpty();
        }));
      }
      files.add(DynamicContainer.dynamicContainer(fixture.name(), tests));
    }
    return files.stream();
  }

  @Test
  void allCasesAreFound() {
    int total = 0;
    for (Path file : SharedFixtures.files("merge")) {
      total += suite.cases(SharedFixtures.load(file)).size();
    }
    assertThat(total).isEqualTo(252);
  }
}
