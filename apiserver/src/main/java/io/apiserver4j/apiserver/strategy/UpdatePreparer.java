/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;

/**
 * kube's {@code PrepareForUpdate} of a subresource strategy: the object to store, from the
 * updated one, the stored one and the request's time (for the timestamps it fills in).
 */
@FunctionalInterface
public interface UpdatePreparer {
  MapValue prepare(MapValue object, MapValue old, java.time.Instant now);
}
