/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

/**
 * What kube's CEL authorizer library ({@code authorizer.group(..).resource(..).check(verb)},
 * {@code authorizer.path(..).check(verb)}, {@code authorizer.serviceAccount(ns, name)},
 * {@code authorizer.requestResource}) asks: whether the request's user (or a named service
 * account) may do something. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface CelAuthorizer {

  /**
   * Decides one check.
   *
   * @param check the question, for the request's user or a named service account
   * @return the decision; errors are reported in it, never thrown
   */
  Decision check(Check check);

  /**
   * Allows every check (an embedding without authorization).
   *
   * @return an authorizer whose every decision is {@link Decision#ALLOW}
   */
  static CelAuthorizer allowAll() {
    return check -> Decision.ALLOW;
  }

  /**
   * An authorizer for one request: {@code authorizer} checks as the request's user, and
   * {@code authorizer.requestResource} is the resource the request is for.
   *
   * @param authorizer decides the checks
   * @param group the request's API group, empty for the core group
   * @param resource the request's resource
   * @param subresource the request's subresource or empty
   * @param namespace the request's namespace or empty
   * @param name the request's object name or empty
   */
  record ForRequest(CelAuthorizer authorizer, String group, String resource, String subresource,
      String namespace, String name) {
    /**
     * Checks that no component is null.
     *
     * @param authorizer see the record component
     * @param group see the record component
     * @param resource see the record component
     * @param subresource see the record component
     * @param namespace see the record component
     * @param name see the record component
     * @throws NullPointerException when a component is null
     */
    public ForRequest {
      java.util.Objects.requireNonNull(authorizer, "authorizer");
      java.util.Objects.requireNonNull(group, "group");
      java.util.Objects.requireNonNull(resource, "resource");
      java.util.Objects.requireNonNull(subresource, "subresource");
      java.util.Objects.requireNonNull(namespace, "namespace");
      java.util.Objects.requireNonNull(name, "name");
    }
  }

  /**
   * One authorization question, as kube's {@code authorizer.AttributesRecord}.
   *
   * @param serviceAccount {@code namespace:name} of the service account asked about, empty for
   *     the request's user
   * @param path the non-resource path; empty for resource checks
   * @param group the API group ({@code *} for all)
   * @param resource the resource; empty for path checks
   * @param subresource the subresource or empty
   * @param namespace the namespace or empty
   * @param name the object name or empty
   * @param verb the verb ({@code get}, {@code create}, a custom verb, or an HTTP verb for paths)
   */
  record Check(String serviceAccount, String path, String group, String resource,
      String subresource, String namespace, String name, String verb) {
    /**
     * Whether this asks about a resource rather than a non-resource path.
     *
     * @return true when {@link #path()} is empty
     */
    public boolean resourceRequest() {
      return path.isEmpty();
    }
  }

  /**
   * The answer.
   *
   * @param allowed whether the decision is Allow
   * @param reason the authorizer's reason, possibly empty
   * @param error the evaluation error, empty when none
   */
  record Decision(boolean allowed, String reason, String error) {
    /** An Allow with no reason and no error. */
    public static final Decision ALLOW = new Decision(true, "", "");
  }
}
