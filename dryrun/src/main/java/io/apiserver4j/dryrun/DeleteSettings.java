/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The parts of a delete that decide what happens to the object, after the resource's strategy
 * has applied its defaults.
 *
 * @param gracefulDeletion whether the resource supports graceful deletion (kube: pods); for the
 *     others the grace period is ignored
 * @param gracePeriodSeconds the grace period in effect, if any; negative values count as 1, as
 *     in kube
 * @param propagationPolicy the requested propagation policy, if any
 */
public record DeleteSettings(
    boolean gracefulDeletion, Optional<Long> gracePeriodSeconds,
    Optional<PropagationPolicy> propagationPolicy) {

  private static final DeleteSettings IMMEDIATE =
      new DeleteSettings(false, Optional.empty(), Optional.empty());

  public DeleteSettings {
    requireNonNull(gracePeriodSeconds, "gracePeriodSeconds");
    requireNonNull(propagationPolicy, "propagationPolicy");
  }

  /** A resource without graceful deletion and no propagation policy (most resources). */
  public static DeleteSettings immediate() {
    return IMMEDIATE;
  }

  /** A resource with graceful deletion and this grace period. */
  public static DeleteSettings graceful(long gracePeriodSeconds) {
    return new DeleteSettings(true, Optional.of(gracePeriodSeconds), Optional.empty());
  }

  public DeleteSettings withPropagationPolicy(PropagationPolicy policy) {
    return new DeleteSettings(gracefulDeletion, gracePeriodSeconds,
        Optional.of(requireNonNull(policy, "policy")));
  }

  /** DeleteOptions' {@code propagationPolicy}. */
  public enum PropagationPolicy {
    ORPHAN("Orphan"),
    BACKGROUND("Background"),
    FOREGROUND("Foreground");

    private final String wireName;

    PropagationPolicy(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    /**
     * Parses a wire name.
     *
     * @throws IllegalArgumentException naming the value when unknown
     */
    public static PropagationPolicy fromWireName(String name) {
      for (PropagationPolicy p : values()) {
        if (p.wireName.equals(name)) {
          return p;
        }
      }
      throw new IllegalArgumentException("unknown propagation policy \"" + name
          + "\"; expected Orphan, Background or Foreground");
    }
  }
}
