/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

/**
 * kube's {@code UpdateOptions}: the options of a PUT.
 *
 * @param dryRun whether the update is a dry run
 * @param fieldManager the {@code fieldManager}; empty for kube's default (the User-Agent's
 *     prefix)
 * @param fieldValidation what the update does with unknown and duplicate fields
 */
public record UpdateOptions(DryRun dryRun, String fieldManager, FieldValidation fieldValidation)
    implements VerbOptions {
  private static final UpdateOptions DEFAULTS =
      new UpdateOptions(DryRun.NONE, "", FieldValidation.WARN);

  /** Checks the components. */
  public UpdateOptions {
    requireNonNull(dryRun, "dryRun");
    requireNonNull(fieldManager, "fieldManager");
    requireNonNull(fieldValidation, "fieldValidation");
  }

  /** kube's defaults: a real write, no field manager, {@link FieldValidation#WARN}. */
  public static UpdateOptions defaults() {
    return DEFAULTS;
  }

  /** These options with {@code dryRun}. */
  public UpdateOptions withDryRun(DryRun d) {
    return new UpdateOptions(d, fieldManager, fieldValidation);
  }

  /** These options with {@code fieldManager}. */
  public UpdateOptions withFieldManager(String manager) {
    return new UpdateOptions(dryRun, manager, fieldValidation);
  }

  /** These options with {@code fieldValidation}. */
  public UpdateOptions withFieldValidation(FieldValidation v) {
    return new UpdateOptions(dryRun, fieldManager, v);
  }
}
