/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;

/**
 * The grace period of a delete of a kind that deletes gracefully (kube's
 * {@code CheckGracefulDelete}): the requested period or a default, possibly overridden (kube
 * deletes pods that never reached a node at once).
 */
@FunctionalInterface
public interface GracePeriod {
  /**
   * @param object the object being deleted
   * @param requested the {@code gracePeriodSeconds} of the request, if given
   * @return the grace period in seconds; 0 deletes immediately
   */
  long resolve(MapValue object, java.util.OptionalLong requested);
}
