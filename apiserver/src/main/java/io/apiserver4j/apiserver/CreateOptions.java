/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

/**
 * kube's {@code CreateOptions}: the options of a POST.
 *
 * @param dryRun whether the create is a dry run
 * @param fieldManager the {@code fieldManager}; empty for kube's default (the User-Agent's
 *     prefix)
 * @param fieldValidation what the create does with unknown and duplicate fields
 */
public record CreateOptions(DryRun dryRun, String fieldManager, FieldValidation fieldValidation)
    implements VerbOptions {
  private static final CreateOptions DEFAULTS =
      new CreateOptions(DryRun.NONE, "", FieldValidation.WARN);

  /** Checks the components. */
  public CreateOptions {
    requireNonNull(dryRun, "dryRun");
    requireNonNull(fieldManager, "fieldManager");
    requireNonNull(fieldValidation, "fieldValidation");
  }

  /** kube's defaults: a real write, no field manager, {@link FieldValidation#WARN}. */
  public static CreateOptions defaults() {
    return DEFAULTS;
  }

  /** These options with {@code dryRun}. */
  public CreateOptions withDryRun(DryRun d) {
    return new CreateOptions(d, fieldManager, fieldValidation);
  }

  /** These options with {@code fieldManager}. */
  public CreateOptions withFieldManager(String manager) {
    return new CreateOptions(dryRun, manager, fieldValidation);
  }

  /** These options with {@code fieldValidation}. */
  public CreateOptions withFieldValidation(FieldValidation v) {
    return new CreateOptions(dryRun, fieldManager, v);
  }
}
