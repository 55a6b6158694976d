/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

/**
 * A sync that ends with an error, as kube's sync functions return one from a stale cache or an
 * object they cannot act on yet. The worker logs it as one line, without a stack (kube's
 * {@code utilruntime.HandleError}), and requeues the key with backoff: it is expected, not a bug.
 */
public final class SyncError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SyncError(String message) {
    super(message, null, false, false);
  }
}
