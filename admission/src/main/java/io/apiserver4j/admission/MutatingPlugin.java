/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import io.apiserver4j.core.MapValue;

/**
 * A plugin that may change the incoming object, like kube-apiserver's
 * {@code admission.MutationInterface}.
 *
 * <p>Contract (a break is reported by the chain as a 500 InternalError naming the plugin): the
 * result is never {@code null}; it keeps the object's {@code apiVersion}, {@code kind},
 * {@code metadata.name} and {@code metadata.namespace}. Values are immutable, so the old object
 * cannot be changed; a plugin returns a new object instead.
 */
public interface MutatingPlugin extends AdmissionPlugin {

  /**
   * Admits a request that carries an object (CREATE, UPDATE, CONNECT with options).
   *
   * @param attributes the request; its {@code object()} is {@code object}
   * @param object the object as left by the previous mutating plugin
   * @return the object to pass on: {@code object} itself when nothing changes
   * @throws io.apiserver4j.core.errors.StatusException to deny the request
   */
  MapValue admit(AdmissionAttributes attributes, MapValue object);

  /**
   * Admits a request without an object (DELETE, CONNECT without options): the plugin can only
   * deny. Does nothing unless overridden.
   *
   * @param attributes the request, without an object
   * @throws io.apiserver4j.core.errors.StatusException to deny the request
   */
  default void admitWithoutObject(AdmissionAttributes attributes) {}
}
