/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Optional;

/**
 * Extra validation of a kind's own fields (kube's {@code Validate}/{@code ValidateUpdate});
 * ObjectMeta is validated by the server itself.
 */
@FunctionalInterface
public interface Validator {
  /**
   * @param object the object about to be stored
   * @param old the stored object on updates
   * @return field errors; empty when valid
   */
  List<FieldError> validate(MapValue object, Optional<MapValue> old);

  /**
   * The validation with the warnings the write raises (kube's {@code WarningsOnCreate} and
   * {@code WarningsOnUpdate}, e.g. a ratcheted CEL rule of a custom resource); none unless a
   * validator says otherwise.
   */
  default Verdict check(MapValue object, Optional<MapValue> old) {
    return new Verdict(validate(object, old), List.of());
  }
}
