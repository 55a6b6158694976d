/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

import io.apiserver4j.core.MapValue;

/**
 * The create of a resource that computes an answer and stores nothing (kube's review
 * resources, e.g. SelfSubjectAccessReview): given the requesting user, the request's
 * namespace and the decoded object, the object to answer.
 */
@FunctionalInterface
public interface VirtualCreate {
  MapValue create(io.apiserver4j.admission.UserInfo user, String namespace, MapValue object);
}
