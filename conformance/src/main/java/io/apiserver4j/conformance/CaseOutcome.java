/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The result of checking one unit of a fixture file (a merge case, a typed item, a fieldpath
 * call), or of a file that could not be checked at all.
 *
 * @param file the fixture's name (see {@link Fixture#name()})
 * @param caseName which unit inside the file, e.g. {@code calls[3] setFromJSON}
 * @param failure why it failed; empty when it passed
 */
public record CaseOutcome(String file, String caseName, Optional<String> failure) {
  public CaseOutcome {
    requireNonNull(file, "file");
    requireNonNull(caseName, "caseName");
    requireNonNull(failure, "failure");
  }

  public static CaseOutcome passed(String file, String caseName) {
    return new CaseOutcome(file, caseName, Optional.empty());
  }

  public static CaseOutcome failed(String file, String caseName, String reason) {
    return new CaseOutcome(file, caseName, Optional.of(reason));
  }

  public boolean isPassed() {
    return failure.isEmpty();
  }

  /** {@code FAIL file :: case: reason} or {@code ok file :: case}. */
  @Override
  public String toString() {
    return failure.map(r -> "FAIL " + file + " :: " + caseName + ": " + r)
        .orElse("ok " + file + " :: " + caseName);
  }
}
