/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

/**
 * What happens when a webhook cannot be called or answers nonsense: admissionregistration's
 * {@code failurePolicy}. A webhook's deliberate denial is never ignored, and neither is the
 * dry-run rejection of a webhook with side effects.
 */
public enum FailurePolicy {
  /** The request fails with 500 InternalError (the default, as in kube). */
  FAIL,
  /** The webhook is skipped and the request continues. */
  IGNORE
}
