/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * A taint a simulated Node is registered with, as kubelet's {@code --register-with-taints}:
 * key, value (may be empty) and effect ({@code NoSchedule}, {@code PreferNoSchedule} or
 * {@code NoExecute}). Immutable.
 *
 * @param key the taint key; not empty
 * @param value the taint value; may be empty
 * @param effect one of kube's three taint effects
 */
public record NodeTaint(String key, String value, String effect) {
  private static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  /**
   * Checks the parts.
   *
   * @throws IllegalArgumentException for an empty key or an effect kube does not know
   */
  public NodeTaint {
    requireNonNull(key, "key");
    requireNonNull(value, "value");
    requireNonNull(effect, "effect");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("a taint needs a key");
    }
    if (!EFFECTS.contains(effect)) {
      throw new IllegalArgumentException("taint effect \"" + effect
          + "\" is not one of NoSchedule, PreferNoSchedule, NoExecute");
    }
  }
}
