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
  public enum Kind { COMPILE, EVALUATION, COST_LIMIT }

  private final Kind kind;
  private final long cost;

  public CelException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, 0);
  }

  public CelException(Kind kind, String message, Throwable cause, long cost) {
    super(message, cause);
    this.kind = kind;
    this.cost = cost;
  }

  /** The runtime cost spent before the failure; 0 when the evaluation was not tracked. */
  public long cost() {
    return cost;
  }

  public Kind kind() {
    return kind;
  }
}
