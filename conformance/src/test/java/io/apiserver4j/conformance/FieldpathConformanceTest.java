/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.ListValue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every call of every {@code ../shared/conformance/fieldpath} fixture, one test each. */
class FieldpathConformanceTest {
  private static final FieldpathSuite SUITE = new FieldpathSuite();

  private static Path dir() {
    return SharedDir.get().resolve("conformance").resolve("fieldpath");
  }

  @TestFactory
  List<DynamicNode> fieldpathFixtures() throws IOException {
    List<DynamicNode> files = new ArrayList<>();
    for (Path file : ConformanceRunner.discover(dir())) {
      String name = file.getFileName().toString();
      Fixture fixture = ConformanceRunner.load(file, name);
      assertThat(SUITE.accepts(fixture)).as(name).isTrue();
      ListValue calls = (ListValue) fixture.content().getOrNull("calls");
      List<DynamicTest> tests = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        int index = i;
        CaseOutcome probe = SUITE.runCall(name, index, calls.get(index));
        tests.add(DynamicTest.dynamicTest(probe.caseName(), () -> {
          CaseOutcome outcome = SUITE.runCall(name, index, calls.get(index));
          assertThat(outcome.failure()).as(outcome.toString()).isEmpty();
        }));
      }
      files.add(DynamicContainer.dynamicContainer(name, tests));
    }
    assertThat(files).hasSize(11);
    return files;
  }

  @Test
  void countsMatchCountsTxt() {
    ConformanceReport report = new ConformanceRunner(List.of(SUITE)).run(dir());
    // counts.txt: "TOTAL fieldpath: 231"
    assertThat(report.outcomes()).hasSize(231);
    assertThat(report.failures()).isEmpty();
  }
}
