/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * kube's storage-level {@code GuaranteedUpdate} of one object of a served resource in the
 * request's namespace: {@code change} runs on the current object (again after a lost race)
 * and its result is stored as it is — no strategy, no admission, no managed fields; nothing is
 * written on a dry run. Throws kube's 404 for a missing object and 409 for a failed
 * precondition; a {@code change} refuses by throwing a Status error.
 */
@FunctionalInterface
public interface StorageUpdate {
  MapValue update(io.apiserver4j.core.GroupVersionResource resource, String name,
      Optional<String> uid, Optional<String> resourceVersion,
      java.util.function.UnaryOperator<MapValue> change);
}
