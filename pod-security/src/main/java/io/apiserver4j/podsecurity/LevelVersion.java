/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

/**
 * A level at a policy version, as kube's {@code api.LevelVersion}; prints as
 * {@code restricted:latest}.
 *
 * @param level the level
 * @param version the policy version
 */
public record LevelVersion(Level level, PolicyVersion version) {
  /**
   * Checks the components.
   *
   * @param level see the record component
   * @param version see the record component
   * @throws NullPointerException when one is null
   */
  public LevelVersion {
    requireNonNull(level, "level");
    requireNonNull(version, "version");
  }

  /**
   * The level at {@code latest}.
   *
   * @param level the level
   * @return the level version
   */
  public static LevelVersion latest(Level level) {
    return new LevelVersion(level, PolicyVersion.latest());
  }

  /**
   * Whether both allow the same pods for sure: both privileged, or the same level and version.
   *
   * @param other the other level version
   * @return true when equivalent
   */
  public boolean equivalent(LevelVersion other) {
    return (level == Level.PRIVILEGED && other.level == Level.PRIVILEGED) || equals(other);
  }

  /**
   * A copy with another level.
   *
   * @param l the level
   * @return the copy
   */
  public LevelVersion withLevel(Level l) {
    return new LevelVersion(l, version);
  }

  /**
   * A copy with another version.
   *
   * @param v the version
   * @return the copy
   */
  public LevelVersion withVersion(PolicyVersion v) {
    return new LevelVersion(level, v);
  }

  @Override
  public String toString() {
    return level.label() + ":" + version;
  }
}
