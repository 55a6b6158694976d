/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

/**
 * admissionregistration's {@code matchPolicy}: whether a request for a resource the rules do not
 * name still matches when an equivalent resource (the same objects served under another group or
 * version) is named.
 */
public enum MatchPolicy {
  /** Only the requested group, version and resource are compared with the rules. */
  EXACT("Exact"),
  /** Equivalent resources match too; the default of admissionregistration.k8s.io/v1. */
  EQUIVALENT("Equivalent");

  private final String wireName;

  MatchPolicy(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name in admissionregistration.k8s.io.
   *
   * @return {@code Exact} or {@code Equivalent}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The policy named {@code wireName}; {@link #EQUIVALENT}, kube's default, otherwise.
   *
   * @param wireName the name, possibly null
   * @return the policy
   */
  public static MatchPolicy fromWireName(String wireName) {
    return EXACT.wireName.equals(wireName) ? EXACT : EQUIVALENT;
  }
}
