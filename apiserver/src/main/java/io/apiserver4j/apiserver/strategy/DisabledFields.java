/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.kubeapi.FeatureGates;
import java.util.Optional;

/**
 * kube's {@code dropDisabledFields} of a kind: clears the fields whose feature gate is off, unless
 * the stored object already uses them (then an update keeps them, so turning a gate off never
 * breaks an object written while it was on). Runs first in the preparation of creates and of
 * main-resource updates, before the generation is moved and before validation.
 *
 * <p>Must be thread-safe and side-effect free.
 */
@FunctionalInterface
public interface DisabledFields {
  /**
   * Drops the disabled fields.
   *
   * @param object the object about to be stored
   * @param old the stored object on updates, empty on creates
   * @param gates the server's feature gates at its emulated release
   * @return the object without the fields of disabled gates not in use by {@code old}
   */
  MapValue drop(MapValue object, Optional<MapValue> old, FeatureGates gates);
}
