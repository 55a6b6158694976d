/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.merge.Force;
import java.util.Optional;

/**
 * kube's {@code PatchOptions}: the options of a PATCH. The server checks their combination with
 * the patch type as kube's {@code ValidatePatchOptions} does: an apply needs a field manager and
 * a non-apply patch may not carry {@code force} at all (not even {@code false}).
 *
 * @param dryRun whether the patch is a dry run
 * @param fieldManager the {@code fieldManager}; required for apply
 * @param fieldValidation what the patch does with unknown and duplicate fields
 * @param force the {@code force} of an apply, if given
 */
public record PatchOptions(DryRun dryRun, String fieldManager, FieldValidation fieldValidation,
    Optional<Force> force) implements VerbOptions {
  private static final PatchOptions DEFAULTS =
      new PatchOptions(DryRun.NONE, "", FieldValidation.WARN, Optional.empty());

  /** Checks the components. */
  public PatchOptions {
    requireNonNull(dryRun, "dryRun");
    requireNonNull(fieldManager, "fieldManager");
    requireNonNull(fieldValidation, "fieldValidation");
    requireNonNull(force, "force");
  }

  /** kube's defaults: a real write, no field manager, {@link FieldValidation#WARN}, no force. */
  public static PatchOptions defaults() {
    return DEFAULTS;
  }

  /** The options of a server-side apply by {@code fieldManager} with {@code force}. */
  public static PatchOptions apply(String fieldManager, Force force) {
    return new PatchOptions(DryRun.NONE, fieldManager, FieldValidation.WARN,
        Optional.of(requireNonNull(force, "force")));
  }

  /** These options with {@code dryRun}. */
  public PatchOptions withDryRun(DryRun d) {
    return new PatchOptions(d, fieldManager, fieldValidation, force);
  }

  /** These options with {@code fieldManager}. */
  public PatchOptions withFieldManager(String manager) {
    return new PatchOptions(dryRun, manager, fieldValidation, force);
  }

  /** These options with {@code fieldValidation}. */
  public PatchOptions withFieldValidation(FieldValidation v) {
    return new PatchOptions(dryRun, fieldManager, v, force);
  }

  /** These options with {@code force} given. */
  public PatchOptions withForce(Force f) {
    return new PatchOptions(dryRun, fieldManager, fieldValidation,
        Optional.of(requireNonNull(f, "force")));
  }

  /** Whether an apply with these options takes fields from other managers. */
  public boolean forces() {
    return force.orElse(Force.NO) == Force.YES;
  }
}
