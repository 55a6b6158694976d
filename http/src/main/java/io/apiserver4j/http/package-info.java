/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Kubernetes REST API of an {@link io.apiserver4j.apiserver.ApiServer} over HTTP, for
 * kubectl and the Java Kubernetes clients, unchanged.
 *
 * <p>{@link io.apiserver4j.http.HttpApiServer} serves it on Jetty 12: {@code /api} and
 * {@code /apis/<group>/<version>} resources with their {@code status} and {@code scale}
 * subresources, discovery (aggregated v2/v2beta1 and legacy), {@code /openapi/v3} (and a
 * {@code /openapi/v2} for older kubectl), {@code /version}, {@code /healthz}, {@code /livez},
 * {@code /readyz}; JSON and YAML, tables ({@code as=Table}), watches over chunked HTTP and
 * WebSocket, protobuf bodies of kubectl's typed commands for the core kinds.
 * {@link io.apiserver4j.authz.Authenticator}s (bearer tokens, client certificates) identify
 * users and an {@link io.apiserver4j.authz.Authorizer} decides; {@link io.apiserver4j.http.Kubeconfig}
 * writes the file clients need.
 */
package io.apiserver4j.http;
