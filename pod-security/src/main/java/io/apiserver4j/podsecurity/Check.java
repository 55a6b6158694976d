/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A Pod Security Standards check with its implementation per policy version, as kube's
 * {@code policy.Check}.
 *
 * @param id the check's id, e.g. {@code allowPrivilegeEscalation}
 * @param level the level it belongs to (baseline or restricted)
 * @param versions its implementations, by strictly increasing minimum version
 */
public record Check(String id, Level level, List<Versioned> versions) {
  /**
   * Copies the versions.
   *
   * @param id see the record component
   * @param level see the record component
   * @param versions see the record component
   * @throws NullPointerException when a component is null
   */
  public Check {
    requireNonNull(id, "id");
    requireNonNull(level, "level");
    versions = List.copyOf(versions);
  }

  /**
   * One implementation of a check, as kube's {@code policy.VersionedCheck}.
   *
   * @param minimumVersion the first policy version it applies to
   * @param check the implementation
   * @param overrideCheckIds baseline checks this restricted check replaces at the restricted
   *     level from this version on
   */
  public record Versioned(PolicyVersion minimumVersion, PodCheck check,
      List<String> overrideCheckIds) {
    /**
     * Copies the overrides.
     *
     * @param minimumVersion see the record component
     * @param check see the record component
     * @param overrideCheckIds see the record component
     * @throws NullPointerException when a component is null
     */
    public Versioned {
      requireNonNull(minimumVersion, "minimumVersion");
      requireNonNull(check, "check");
      overrideCheckIds = List.copyOf(overrideCheckIds);
    }

    /**
     * An implementation without overrides.
     *
     * @param minimumVersion the first policy version it applies to
     * @param check the implementation
     * @return the versioned check
     */
    public static Versioned of(PolicyVersion minimumVersion, PodCheck check) {
      return new Versioned(minimumVersion, check, List.of());
    }
  }
}
