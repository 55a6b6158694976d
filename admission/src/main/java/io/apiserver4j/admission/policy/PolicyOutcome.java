/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What admitted requests take away from policies: warnings for the client ({@code Warn}
 * validation actions) and audit annotations ({@code auditAnnotations}, {@code Audit} actions).
 *
 * @param warnings warning texts, in evaluation order
 * @param auditAnnotations audit annotation keys ({@code <policy>/<key>}) and values
 */
public record PolicyOutcome(List<String> warnings, Map<String, String> auditAnnotations) {
  private static final PolicyOutcome EMPTY = new PolicyOutcome(List.of(), Map.of());

  /**
   * Copies the warnings and annotations.
   *
   * @param warnings see the record component
   * @param auditAnnotations see the record component
   * @throws NullPointerException when a component is null
   */
  public PolicyOutcome {
    warnings = List.copyOf(warnings);
    auditAnnotations = Collections.unmodifiableMap(new LinkedHashMap<>(auditAnnotations));
  }

  /**
   * No warnings, no annotations.
   *
   * @return the shared empty outcome
   */
  public static PolicyOutcome empty() {
    return EMPTY;
  }
}
