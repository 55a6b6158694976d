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

  /**
   * Checks that the optional components are present objects (possibly empty).
   *
   * @param gracefulDeletion see the record component
   * @param gracePeriodSeconds see the record component
   * @param propagationPolicy see the record component
   * @throws NullPointerException when an optional is null
   */
  public DeleteSettings {
    requireNonNull(gracePeriodSeconds, "gracePeriodSeconds");
    requireNonNull(propagationPolicy, "propagationPolicy");
  }

  /**
   * A resource without graceful deletion and no propagation policy (most resources).
   *
   * @return the shared settings that delete at once
   */
  public static DeleteSettings immediate() {
    return IMMEDIATE;
  }

  /**
   * A resource with graceful deletion and this grace period.
   *
   * @param gracePeriodSeconds the grace period in effect; negative counts as 1, zero deletes at once
   * @return settings for a graceful delete without a propagation policy
   */
  public static DeleteSettings graceful(long gracePeriodSeconds) {
    return new DeleteSettings(true, Optional.of(gracePeriodSeconds), Optional.empty());
  }

  /**
   * A copy of these settings with DeleteOptions' {@code propagationPolicy} set.
   *
   * @param policy the policy that decides the {@code orphan} and {@code foregroundDeletion}
   *     finalizers
   * @return new settings; this object is unchanged
   */
  public DeleteSettings withPropagationPolicy(PropagationPolicy policy) {
    return new DeleteSettings(gracefulDeletion, gracePeriodSeconds,
        Optional.of(requireNonNull(policy, "policy")));
  }

  /** DeleteOptions' {@code propagationPolicy}. */
  public enum PropagationPolicy {
    /** Dependents are orphaned: the {@code orphan} finalizer is added. */
    ORPHAN("Orphan"),
    /** Dependents are deleted by the garbage collector after the owner is gone. */
    BACKGROUND("Background"),
    /** Dependents are deleted first: the {@code foregroundDeletion} finalizer is added. */
    FOREGROUND("Foreground");

    private final String wireName;

    PropagationPolicy(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The name on the wire.
     *
     * @return {@code Orphan}, {@code Background} or {@code Foreground}
     */
    public String wireName() {
      return wireName;
    }

    /**
     * Parses a wire name.
     *
     * @param name the exact, case-sensitive wire name
     * @return the policy of that name
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
