/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The embeddable API server.
 *
 * <ul>
 *   <li>{@link io.apiserver4j.apiserver.ApiServer}: built with its store, clock, admission and
 *       limits; runs {@link io.apiserver4j.apiserver.ApiRequest}s (typed options; an HTTP layer
 *       reads them with {@link io.apiserver4j.apiserver.QueryParameters}) and answers
 *       {@link io.apiserver4j.apiserver.ApiResponse}s or opens
 *       {@link io.apiserver4j.apiserver.ApiWatch}es.
 *   <li>{@link io.apiserver4j.apiserver.ResourceClient}: a short typed client for embedders.
 *   <li>What a resource is: {@link io.apiserver4j.apiserver.ResourceDefinition} (names, scope,
 *       schema, subresources) and its {@link io.apiserver4j.apiserver.ResourceStrategy}
 *       (defaulting, validation, generation, reset fields, selectable fields, graceful
 *       deletion); the served set in {@link io.apiserver4j.apiserver.ResourceRegistry}.
 * </ul>
 */
package io.apiserver4j.apiserver;
