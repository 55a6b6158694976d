/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of one check on one pod, as kube's {@code policy.CheckResult}.
 *
 * @param allowed whether the pod passes the check
 * @param forbiddenReason a short reason when not allowed, e.g. {@code allowPrivilegeEscalation
 *     != false}; empty when allowed
 * @param forbiddenDetail what is wrong, e.g. {@code container "x" must set
 *     securityContext.allowPrivilegeEscalation=false}; may be empty
 */
public record CheckResult(boolean allowed, String forbiddenReason, String forbiddenDetail) {
  private static final CheckResult ALLOWED = new CheckResult(true, "", "");

  /**
   * Checks the components.
   *
   * @param allowed see the record component
   * @param forbiddenReason see the record component
   * @param forbiddenDetail see the record component
   * @throws NullPointerException when a string is null
   */
  public CheckResult {
    requireNonNull(forbiddenReason, "forbiddenReason");
    requireNonNull(forbiddenDetail, "forbiddenDetail");
  }

  /**
   * The passing result.
   *
   * @return an allowed result
   */
  public static CheckResult allow() {
    return ALLOWED;
  }

  /**
   * A failing result.
   *
   * @param reason the short reason
   * @param detail the detail
   * @return a forbidden result
   */
  public static CheckResult forbid(String reason, String detail) {
    return new CheckResult(false, reason, detail);
  }
}
