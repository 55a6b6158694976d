/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.MapValue;
import java.util.Set;

/**
 * The create of a named object's subresource that computes an answer and stores nothing of its
 * own kind (kube's {@code NamedCreater}, e.g. {@code serviceaccounts/token},
 * {@code pods/eviction}, {@code pods/binding}); registered under {@code ""}, the create of
 * the resource itself (kube's legacy {@code bindings}), named by the body. The answer is
 * returned with 201 unless it is a {@code Status}, whose code it keeps. Failures are thrown as
 * Status errors.
 */
@FunctionalInterface
public non-sealed interface SubresourceCreate extends SubresourceHandler {
  MapValue create(CreateCall call);

  /**
   * Other API versions of the body's kind accepted and decoded as the subresource's own
   * (kube's {@code GroupVersionAcceptor}); none by default.
   */
  default Set<String> acceptedApiVersions() {
    return Set.of();
  }

  /** A named create: POST only. */
  @Override
  default Set<ApiRequest.Verb> verbs() {
    return Set.of(ApiRequest.Verb.CREATE);
  }
}
