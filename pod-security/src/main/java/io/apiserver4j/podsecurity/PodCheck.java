/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import io.apiserver4j.core.MapValue;

/**
 * One version of a check: kube's {@code policy.CheckPodFn}. Implementations are pure and
 * thread-safe.
 */
@FunctionalInterface
public interface PodCheck {
  /**
   * Checks a pod (or a pod template).
   *
   * @param podMetadata the pod's metadata (empty map when none)
   * @param podSpec the pod's spec (empty map when none)
   * @return the result
   */
  CheckResult check(MapValue podMetadata, MapValue podSpec);
}
