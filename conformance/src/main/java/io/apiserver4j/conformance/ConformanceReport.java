/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** All outcomes of one run, in file and case order. */
public record ConformanceReport(List<CaseOutcome> outcomes) {
  public ConformanceReport {
    requireNonNull(outcomes, "outcomes");
    outcomes = List.copyOf(outcomes);
  }

  public long passed() {
    return outcomes.stream().filter(CaseOutcome::isPassed).count();
  }

  public long failed() {
    return outcomes.size() - passed();
  }

  public List<CaseOutcome> failures() {
    return outcomes.stream().filter(o -> !o.isPassed()).toList();
  }

  public boolean allPassed() {
    return failed() == 0 && !outcomes.isEmpty();
  }

  /** {@code N passed, M failed}. */
  public String summaryLine() {
    return passed() + " passed, " + failed() + " failed";
  }
}
