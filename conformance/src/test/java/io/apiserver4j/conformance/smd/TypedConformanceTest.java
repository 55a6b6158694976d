/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.conformance.CaseOutcome;
import io.apiserver4j.conformance.Fixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every item of {@code ../shared/conformance/typed}, one dynamic test per item. */
class TypedConformanceTest {
  private final TypedSuite suite = new TypedSuite();

  @TestFactory
  Stream<DynamicNode> typedItems() {
    List<DynamicNode> files = new ArrayList<>();
    for (Path file : SharedFixtures.files("typed")) {
      Fixture fixture = SharedFixtures.load(file);
      assertThat(suite.accepts(fixture)).as("typed suite accepts %s", file).isTrue();
      List<DynamicTest> tests = new ArrayList<>();
      for (TypedSuite.Item item : suite.items(fixture)) {
        tests.add(DynamicTest.dynamicTest(item.name(), () -> {
          CaseOutcome outcome = suite.runItem(fixture.name(), item);
          assertThat(outcome.failure()).as(outcome.toString()).isEmpty();
        }));
      }
      files.add(DynamicContainer.dynamicContainer(fixture.name(), tests));
    }
    return files.stream();
  }

  @Test
  void allItemsAreFound() {
    int total = 0;
    for (Path file : SharedFixtures.files("typed")) {
      total += suite.items(SharedFixtures.load(file)).size();
    }
    assertThat(total).isEqualTo(356);
  }
}
