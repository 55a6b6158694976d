/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

/**
 * A rule that does not compile ({@link Kind#COMPILE}), fails at run time
 * ({@link Kind#EVALUATION}) or is cancelled past its runtime cost limit
 * ({@link Kind#COST_LIMIT}, cel-go's {@code operation cancelled: actual cost limit exceeded});
 * the message is the CEL library's, suitable for kube's {@code rule compile error: ...} and
 * {@code ... evaluating rule: ...} field errors. Failures of tracked evaluations carry the cost
 * spent until then ({@link #cost()}), which kube still charges to the budget.
 */
public final class CelException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /** The expression does not parse or type-check. */
    COMPILE,
    /** The evaluation failed (no such key, overflow, a failing function, ...). */
    EVALUATION,
    /** The evaluation was cancelled once its runtime cost passed the limit. */
    COST_LIMIT
  }

  /** What went wrong. */
  private final Kind kind;
  /** The runtime cost spent before the failure, 0 when untracked. */
  private final long cost;

  /**
   * A failure of an untracked evaluation or a compilation (cost 0).
   *
   * @param kind what went wrong
   * @param message the CEL library's message
   * @param cause the library's exception, or null
   */
  public CelException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, 0);
  }

  /**
   * A failure that carries the runtime cost spent until it happened.
   *
   * @param kind what went wrong
   * @param message the CEL library's message
   * @param cause the library's exception, or null
   * @param cost the runtime cost spent, in cel-go's units
   */
  public CelException(Kind kind, String message, Throwable cause, long cost) {
    super(message, cause);
    this.kind = kind;
    this.cost = cost;
  }

  /**
   * The runtime cost spent before the failure.
   *
   * @return the cost in cel-go's units; 0 when the evaluation was not tracked
   */
  public long cost() {
    return cost;
  }

  /**
   * What went wrong.
   *
   * @return the kind of failure
   */
  public Kind kind() {
    return kind;
  }
}
