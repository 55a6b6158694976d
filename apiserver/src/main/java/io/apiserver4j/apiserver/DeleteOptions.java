/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.storage.Preconditions;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * kube's {@code DeleteOptions}: the options of a DELETE (and of each delete of a
 * delete-collection). The server refuses {@code orphanDependents} beside a
 * {@code propagationPolicy} with kube's 422.
 *
 * @param dryRun whether the delete is a dry run
 * @param propagationPolicy what happens to the dependents, if given (kube's default: the kind's,
 *     {@link PropagationPolicy#BACKGROUND} for most)
 * @param gracePeriodSeconds the grace period, if given; only kinds that delete gracefully (Pod)
 *     use it, 0 deletes at once
 * @param orphanDependents kube's deprecated predecessor of {@code propagationPolicy}, if given
 * @param preconditions the {@code uid} and {@code resourceVersion} the object must still have
 */
public record DeleteOptions(DryRun dryRun, Optional<PropagationPolicy> propagationPolicy,
    OptionalLong gracePeriodSeconds, Optional<Boolean> orphanDependents,
    Preconditions preconditions) implements VerbOptions {
  private static final DeleteOptions DEFAULTS = builder().build();

  /** Checks the components. */
  public DeleteOptions {
    requireNonNull(dryRun, "dryRun");
    requireNonNull(propagationPolicy, "propagationPolicy");
    requireNonNull(gracePeriodSeconds, "gracePeriodSeconds");
    requireNonNull(orphanDependents, "orphanDependents");
    requireNonNull(preconditions, "preconditions");
  }

  /** kube's defaults: nothing given. */
  public static DeleteOptions defaults() {
    return DEFAULTS;
  }

  /** The delete with {@code policy} and nothing else given. */
  public static DeleteOptions of(PropagationPolicy policy) {
    return builder().propagationPolicy(policy).build();
  }

  /** A builder with nothing given. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder initialised with these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.dryRun = dryRun;
    b.propagationPolicy = propagationPolicy;
    b.gracePeriodSeconds = gracePeriodSeconds;
    b.orphanDependents = orphanDependents;
    b.preconditions = preconditions;
    return b;
  }

  /** Mutable builder of {@link DeleteOptions}; not thread-safe. */
  public static final class Builder {
    private DryRun dryRun = DryRun.NONE;
    private Optional<PropagationPolicy> propagationPolicy = Optional.empty();
    private OptionalLong gracePeriodSeconds = OptionalLong.empty();
    private Optional<Boolean> orphanDependents = Optional.empty();
    private Preconditions preconditions = Preconditions.none();

    private Builder() {}

    /** Whether the delete is a dry run. */
    public Builder dryRun(DryRun d) {
      this.dryRun = requireNonNull(d, "dryRun");
      return this;
    }

    /** What happens to the dependents. */
    public Builder propagationPolicy(PropagationPolicy p) {
      this.propagationPolicy = Optional.of(requireNonNull(p, "propagationPolicy"));
      return this;
    }

    /** The grace period in seconds (kube treats a negative one as 1). */
    public Builder gracePeriodSeconds(long seconds) {
      this.gracePeriodSeconds = OptionalLong.of(seconds);
      return this;
    }

    /** kube's deprecated {@code orphanDependents}. */
    public Builder orphanDependents(boolean orphan) {
      this.orphanDependents = Optional.of(orphan);
      return this;
    }

    /** The {@code metadata.uid} the object must have. */
    public Builder preconditionUid(String uid) {
      this.preconditions = preconditions.withUid(requireNonNull(uid, "uid"));
      return this;
    }

    /** The {@code metadata.resourceVersion} the object must have. */
    public Builder preconditionResourceVersion(String resourceVersion) {
      this.preconditions = preconditions.withResourceVersion(
          requireNonNull(resourceVersion, "resourceVersion"));
      return this;
    }

    /** All the preconditions at once. */
    public Builder preconditions(Preconditions p) {
      this.preconditions = requireNonNull(p, "preconditions");
      return this;
    }

    /** The options. */
    public DeleteOptions build() {
      return new DeleteOptions(dryRun, propagationPolicy, gracePeriodSeconds, orphanDependents,
          preconditions);
    }
  }
}
