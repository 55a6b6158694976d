/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A value does not conform to its schema (or two values cannot be combined). Carries every
 * error found; the message lists them in SMD's format.
 */
public final class ValidationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<ValidationError> errors;

  /**
   * An exception listing the errors.
   *
   * @param errors the errors; copied
   * @throws IllegalArgumentException when the list is empty
   */
  public ValidationException(List<ValidationError> errors) {
    this("", errors);
  }

  /**
   * With {@code context} (for example "failed to merge config") in front of the errors.
   *
   * @param context the text in front, or empty
   * @param errors the errors; copied
   * @throws IllegalArgumentException when the list is empty
   */
  public ValidationException(String context, List<ValidationError> errors) {
    super(message(requireNonNull(context, "context"), requireNonNull(errors, "errors")));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("a ValidationException needs at least one error");
    }
    this.errors = List.copyOf(errors);
  }

  /**
   * The violations.
   *
   * @return the errors, never empty
   */
  public List<ValidationError> errors() {
    return errors;
  }

  private static String message(String context, List<ValidationError> errors) {
    StringBuilder sb = new StringBuilder(context);
    if (!context.isEmpty()) {
      sb.append(": ");
    }
    if (errors.size() == 1) {
      return sb.append(errors.get(0)).toString();
    }
    sb.append("errors:");
    for (ValidationError e : errors) {
      sb.append("\n  ").append(e);
    }
    return sb.toString();
  }
}
