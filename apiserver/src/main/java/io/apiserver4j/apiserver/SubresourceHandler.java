/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import java.util.Set;

/**
 * How one subresource of a resource is served, as kube-apiserver registers a REST storage per
 * subresource ({@code StatusREST}, {@code ScaleREST}, {@code EvictionREST}, ...): a
 * {@link ResourceDefinition} holds its handlers by name ({@link ResourceDefinition#subresource}),
 * and the server's verb handlers find the one a request names and serve the verbs it supports.
 *
 * <ul>
 *   <li>{@link StatusSubresource}: GET, PUT and PATCH of the parent object under the common status rules
 *       (only {@code status} changes);
 *   <li>{@link SubresourceUpdate}: GET, PUT and PATCH of the parent object under the
 *       subresource's own rules (e.g. {@code pods/resize}, or a kind's own status strategy);
 *   <li>{@link ScaleSubresource}: GET, PUT and PATCH of an {@code autoscaling/v1 Scale} view of
 *       the parent's replicas;
 *   <li>{@link SubresourceCreate}: POST of a named object's subresource that computes an answer
 *       (e.g. {@code pods/eviction}, {@code serviceaccounts/token});
 *   <li>{@link SubresourceConnect}: the requests kube-apiserver hands to a kubelet or proxies
 *       (kube's {@code Connecter} and streaming getters: {@code pods/log}, {@code pods/exec},
 *       {@code nodes/proxy}, ...), served by the HTTP layer only.
 * </ul>
 *
 * <p>Every handler is immutable and thread-safe.
 */
public sealed interface SubresourceHandler
    permits StatusSubresource, SubresourceUpdate, ScaleSubresource, SubresourceCreate,
    SubresourceConnect {

  /** The verbs of a subresource that reads and writes through its parent object. */
  Set<Verb> READ_WRITE = Set.of(Verb.GET, Verb.UPDATE, Verb.PATCH);

  /** The verbs the subresource serves; the others are kube's 405. */
  default Set<Verb> verbs() {
    return READ_WRITE;
  }
}
