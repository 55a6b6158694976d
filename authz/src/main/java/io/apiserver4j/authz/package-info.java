/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Who makes a request and whether they may: the service provider interface between a front end
 * that receives requests (such as {@code io.apiserver4j.http.HttpApiServer}) and the policies
 * that judge them (such as {@code io.apiserver4j.auth.RbacAuthorizer}), with no HTTP server in
 * it.
 *
 * <ul>
 *   <li>{@link io.apiserver4j.authz.Authenticator} identifies the user of an
 *       {@link io.apiserver4j.authz.AuthenticationRequest} (kube's request authenticators);
 *       {@link io.apiserver4j.authz.Authenticators} has bearer tokens, client certificates and
 *       their combination.
 *   <li>{@link io.apiserver4j.authz.Authorizer} decides on
 *       {@link io.apiserver4j.authz.AuthorizationAttributes} (kube's
 *       {@code authorizer.Attributes}) with an {@link io.apiserver4j.authz.AuthorizationDecision}.
 *   <li>{@link io.apiserver4j.authz.Auditor} and {@link io.apiserver4j.authz.AuditRecorder} are
 *       the hooks of kube's audit filter: told what happens to each request.
 *   <li>{@link io.apiserver4j.authz.NonResourceDocument} is a document a policy module asks the
 *       front end to serve at a non-resource URL (kube's service account issuer discovery).
 * </ul>
 *
 * <p>Every type here is immutable or a functional interface whose implementations must be
 * thread-safe.
 */
package io.apiserver4j.authz;
