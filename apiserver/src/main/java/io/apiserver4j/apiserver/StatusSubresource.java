/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

/**
 * The {@code status} subresource with the common rules of a kind declared with a status
 * ({@link ResourceDefinition.Builder#status(boolean)}): the status endpoint changes
 * {@code status} only (and the metadata its strategy does not preserve), the main resource
 * everything else.
 */
public enum StatusSubresource implements SubresourceHandler {
  /** The only instance. */
  INSTANCE
}
