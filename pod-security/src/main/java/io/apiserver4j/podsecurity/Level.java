/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import java.util.Optional;

/**
 * A Pod Security Standards level, as kube's {@code api.Level}; ordered from the most permissive
 * ({@link #PRIVILEGED}) to the most restrictive ({@link #RESTRICTED}).
 */
public enum Level {
  /** No restrictions. */
  PRIVILEGED("privileged"),
  /** Prevents known privilege escalations. */
  BASELINE("baseline"),
  /** Pod hardening best practices. */
  RESTRICTED("restricted");

  private final String label;

  Level(String label) {
    this.label = label;
  }

  /**
   * The level as written in labels and configuration.
   *
   * @return e.g. {@code restricted}
   */
  public String label() {
    return label;
  }

  /**
   * Parses a label value, as kube's {@code api.ParseLevel}.
   *
   * @param value the label value
   * @return the level, or empty when the value names none (kube's message is
   *     {@link #PARSE_ERROR})
   */
  public static Optional<Level> parse(String value) {
    for (Level l : values()) {
      if (l.label.equals(value)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  /** kube's error for a value {@link #parse} refuses. */
  public static final String PARSE_ERROR = "must be one of privileged, baseline, restricted";

  @Override
  public String toString() {
    return label;
  }
}
