/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

/**
 * A plugin that accepts or denies a request without changing it, like kube-apiserver's
 * {@code admission.ValidationInterface}. Validating plugins run after the mutating phase and
 * the schema validation, on the final object.
 */
public interface ValidatingPlugin extends AdmissionPlugin {

  /**
   * Accepts the request by returning normally.
   *
   * @throws io.apiserver4j.core.errors.StatusException to deny the request
   * @param attributes the request with its final object
   */
  void validate(AdmissionAttributes attributes);
}
