/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.errors.FieldError;
import java.util.List;

/** What a {@link Validator} found: errors refuse the write, warnings go to the client. */
public record Verdict(List<FieldError> errors, List<String> warnings) {
  public Verdict {
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }
}
