/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

/**
 * A rule that does not compile ({@link Kind#COMPILE}) or fails at run time
 * ({@link Kind#EVALUATION}); the message is the CEL library's, suitable for kube's
 * {@code rule compile error: ...} and {@code ... evaluating rule: ...} field errors.
 */
public final class CelException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind { COMPILE, EVALUATION }

  private final Kind kind;

  public CelException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
