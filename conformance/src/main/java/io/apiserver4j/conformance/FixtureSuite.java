/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import java.util.List;

/**
 * Checks one kind of fixture file (see {@code ../shared/conformance/README.md}). Suites are found
 * with {@link java.util.ServiceLoader}: to add one, implement this interface with a public
 * no-argument constructor and list the class in
 * {@code META-INF/services/io.apiserver4j.conformance.FixtureSuite}.
 *
 * <p>A suite must never skip: a key it does not know, an unknown operation or call, or a missing
 * expected value is a failed case, so that new fixture content cannot pass unnoticed.
 * Implementations must be stateless or thread-safe.
 */
public interface FixtureSuite {
  /** A short name for reports, e.g. {@code fieldpath}. */
  String name();

  /** Whether this suite is responsible for {@code fixture} (decided from its content). */
  boolean accepts(Fixture fixture);

  /**
   * Checks every case of {@code fixture}. Failures are returned as outcomes; an exception escaping
   * is reported by the runner as a failure of the whole file.
   */
  List<CaseOutcome> run(Fixture fixture);
}
