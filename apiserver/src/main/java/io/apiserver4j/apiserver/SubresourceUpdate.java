/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.strategy.Validator;
import io.apiserver4j.apiserver.strategy.UpdatePreparer;
import io.apiserver4j.fieldpath.FieldSet;

/**
 * A subresource that reads and writes the parent object itself, as {@code status} does, with
 * its own rules (kube's subresource strategies, e.g. {@code pods/ephemeralcontainers},
 * {@code pods/resize}, {@code certificatesigningrequests/approval}): GET returns the object,
 * PUT and PATCH write it through the usual update path, with {@code prepare} instead of the
 * main resource's {@code PrepareForUpdate}, {@code validator} instead of its validation, and
 * {@code resetFields} ignored by the field manager.
 */
public record SubresourceUpdate(UpdatePreparer prepare, Validator validator,
    FieldSet resetFields) implements SubresourceHandler {
  public SubresourceUpdate {
    requireNonNull(prepare, "prepare");
    requireNonNull(validator, "validator");
    requireNonNull(resetFields, "resetFields");
  }
}
