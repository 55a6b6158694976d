/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * Values an object takes from a pool that every object of the resource shares, as kube's
 * Service registry allocates cluster IPs and node ports before it validates a Service. The pool
 * is what the other stored objects hold, so it survives restarts and a delete frees what the
 * deleted object held. Runs before preparation and validation on create and on update.
 */
@FunctionalInterface
public interface Allocator {
  /**
   * @param object the object about to be prepared, validated and stored
   * @param old the stored object on updates
   * @param allocation the pool and the request's options
   * @return the object with the values it was given
   * @throws io.apiserver4j.core.errors.StatusException (Invalid) when a requested value is taken or
   *     out of range
   */
  MapValue allocate(MapValue object, Optional<MapValue> old, Allocation allocation);
}
