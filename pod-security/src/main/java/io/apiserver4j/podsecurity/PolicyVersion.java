/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Pod Security Standards policy version: {@code v1.<minor>} or {@code latest}, as kube's
 * {@code api.Version}. {@code latest} is newer than every numbered version. Immutable.
 *
 * @param major the major version (1; 0 only for the zero version kube uses as "unset")
 * @param minor the minor version
 * @param isLatest whether this is {@code latest} (then major and minor are 0)
 */
public record PolicyVersion(int major, int minor, boolean isLatest) implements Comparable<PolicyVersion> {
  private static final PolicyVersion LATEST = new PolicyVersion(0, 0, true);
  private static final Pattern VERSION = Pattern.compile("^v1\\.([0-9]|[1-9][0-9]*)$");

  /** kube's error for a value {@link #parse} refuses. */
  public static final String PARSE_ERROR = "must be \"latest\" or \"v1.x\"";

  /**
   * Checks the components.
   *
   * @param major see the record component
   * @param minor see the record component
   * @param isLatest see the record component
   * @throws IllegalArgumentException for negative numbers or a {@code latest} with numbers
   */
  public PolicyVersion {
    if (major < 0 || minor < 0 || (isLatest && (major != 0 || minor != 0))) {
      throw new IllegalArgumentException("invalid policy version " + major + "." + minor
          + (isLatest ? " (latest)" : ""));
    }
  }

  /**
   * The numbered version {@code v<major>.<minor>}.
   *
   * @param major the major version
   * @param minor the minor version
   * @return the version
   */
  public static PolicyVersion of(int major, int minor) {
    return new PolicyVersion(major, minor, false);
  }

  /**
   * The {@code latest} version.
   *
   * @return latest
   */
  public static PolicyVersion latest() {
    return LATEST;
  }

  /**
   * Parses a label value, as kube's {@code api.ParseVersion}: {@code latest} or {@code v1.<minor>}
   * without leading zeros.
   *
   * @param value the label value
   * @return the version, or empty when the value is not one (kube's message is
   *     {@link #PARSE_ERROR})
   */
  public static Optional<PolicyVersion> parse(String value) {
    if ("latest".equals(value)) {
      return Optional.of(LATEST);
    }
    Matcher m = VERSION.matcher(value);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(of(1, Integer.parseInt(m.group(1))));
    } catch (NumberFormatException e) {
      // more digits than an int holds: Go's Atoi fails the same way
      return Optional.empty();
    }
  }

  /**
   * Whether this version is older than {@code other} (kube's {@code Older}); {@code latest} is
   * never older.
   *
   * @param other the version to compare with
   * @return true when strictly older
   */
  public boolean isOlderThan(PolicyVersion other) {
    return compareTo(other) < 0;
  }

  /**
   * The next minor version; {@code latest} stays {@code latest}.
   *
   * @return the next version
   */
  public PolicyVersion nextMinor() {
    return isLatest ? this : of(major, minor + 1);
  }

  @Override
  public int compareTo(PolicyVersion o) {
    if (isLatest || o.isLatest) {
      return Boolean.compare(isLatest, o.isLatest);
    }
    return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
  }

  @Override
  public String toString() {
    return isLatest ? "latest" : "v" + major + "." + minor;
  }
}
