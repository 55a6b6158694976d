/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import java.util.ArrayList;
import java.util.List;

/**
 * The failures of a pod's check results, as kube's {@code policy.AggregateCheckResult}.
 *
 * @param forbiddenReasons the reasons of the failed checks, in check order
 * @param forbiddenDetails their details, index for index (empty strings where none)
 */
public record AggregateCheckResult(List<String> forbiddenReasons, List<String> forbiddenDetails) {
  /** The reason kube gives a failed check without one. */
  public static final String UNKNOWN_FORBIDDEN_REASON = "unknown forbidden reason";

  /**
   * Copies the lists.
   *
   * @param forbiddenReasons see the record component
   * @param forbiddenDetails see the record component
   * @throws IllegalArgumentException when the lists differ in length
   */
  public AggregateCheckResult {
    forbiddenReasons = List.copyOf(forbiddenReasons);
    forbiddenDetails = List.copyOf(forbiddenDetails);
    if (forbiddenReasons.size() != forbiddenDetails.size()) {
      throw new IllegalArgumentException("reasons and details differ in length");
    }
  }

  /**
   * Aggregates results as kube's {@code AggregateCheckResults}.
   *
   * @param results the results of the checks
   * @return the aggregate
   */
  public static AggregateCheckResult of(List<CheckResult> results) {
    List<String> reasons = new ArrayList<>();
    List<String> details = new ArrayList<>();
    for (CheckResult r : results) {
      if (!r.allowed()) {
        reasons.add(r.forbiddenReason().isEmpty() ? UNKNOWN_FORBIDDEN_REASON : r.forbiddenReason());
        details.add(r.forbiddenDetail());
      }
    }
    return new AggregateCheckResult(reasons, details);
  }

  /**
   * Whether every check passed.
   *
   * @return true when nothing failed
   */
  public boolean allowed() {
    return forbiddenReasons.isEmpty();
  }

  /**
   * The reasons joined with {@code ", "}.
   *
   * @return e.g. {@code allowPrivilegeEscalation != false, unrestricted capabilities}
   */
  public String forbiddenReason() {
    return String.join(", ", forbiddenReasons);
  }

  /**
   * Each reason followed by its detail in parentheses, joined with {@code ", "}: the text of
   * kube's {@code violates PodSecurity} messages.
   *
   * @return the reasons with details
   */
  public String forbiddenDetail() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < forbiddenReasons.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(forbiddenReasons.get(i));
      if (!forbiddenDetails.get(i).isEmpty()) {
        b.append(" (").append(forbiddenDetails.get(i)).append(')');
      }
    }
    return b.toString();
  }
}
