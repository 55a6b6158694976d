/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

/**
 * What an admission plugin may do outside the request, as admissionregistration.k8s.io's
 * {@code sideEffects} classes say.
 *
 * <p>On a dry-run request ({@link AdmissionAttributes#isDryRun()}), a plugin that handles the
 * request and declares {@link #SOME} or {@link #UNKNOWN} is not called and the request is
 * rejected with 400 BadRequest (see {@link AdmissionChain}). Plugins declaring {@link #NONE} or
 * {@link #NONE_ON_DRY_RUN} are called with {@code isDryRun() == true}; the latter promise to
 * skip their side effects then.
 */
public enum SideEffects {
  /** No side effects at all. */
  NONE("None"),
  /** Side effects, but none when the request is a dry run. */
  NONE_ON_DRY_RUN("NoneOnDryRun"),
  /** Side effects, also on dry runs: incompatible with dry-run requests. */
  SOME("Some"),
  /** Not declared: treated as {@link #SOME}. */
  UNKNOWN("Unknown");

  private final String wireName;

  SideEffects(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The admissionregistration.k8s.io name.
   *
   * @return e.g. {@code NoneOnDryRun}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Whether a plugin of this class may be called on a dry-run request.
   *
   * @return true for {@code None} and {@code NoneOnDryRun}
   */
  public boolean supportsDryRun() {
    return this == NONE || this == NONE_ON_DRY_RUN;
  }
}
