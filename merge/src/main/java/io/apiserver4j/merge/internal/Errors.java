/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.merge.ValidationError;
import java.util.ArrayList;
import java.util.List;

/** Collects validation errors at the current path of a walk. */
final class Errors {
  final PathStack path = new PathStack();
  private List<ValidationError> errors;
  /** While positive, errors are dropped (SMD ignores errors inside merged list items). */
  int suppressed;

  void add(String message) {
    if (suppressed > 0) {
      return;
    }
    if (errors == null) {
      errors = new ArrayList<>(4);
    }
    errors.add(new ValidationError(path.toPath(), message));
  }

  boolean isEmpty() {
    return errors == null;
  }

  List<ValidationError> list() {
    return errors == null ? List.of() : errors;
  }
}
