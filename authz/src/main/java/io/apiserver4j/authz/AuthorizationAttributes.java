/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;

/**
 * What an {@link Authorizer} decides on, kube's {@code authorizer.Attributes}: the user, the
 * verb ({@code get}, {@code list}, {@code watch}, {@code create}, {@code update},
 * {@code patch}, {@code delete}, {@code deletecollection}; for non-resource requests the
 * lower-case HTTP method), and either the resource coordinates or the path.
 *
 * @param resourceRequest whether this is a request for an API resource (else {@link #path})
 * @param apiGroup empty for the core group
 * @param namespace empty for cluster-scoped resources and all-namespace lists
 * @param name empty for collections
 * @param path the request path (for non-resource requests)
 */
public record AuthorizationAttributes(UserInfo user, String verb, boolean resourceRequest,
    String apiGroup, String apiVersion, String resource, String subresource, String namespace,
    String name, String path) {

  /**
   * Checks that no component is null.
   *
   * @param user see the record component
   * @param verb see the record component
   * @param resourceRequest see the record component
   * @param apiGroup see the record component
   * @param apiVersion see the record component
   * @param resource see the record component
   * @param subresource see the record component
   * @param namespace see the record component
   * @param name see the record component
   * @param path see the record component
   * @throws NullPointerException when a component is null
   */
  public AuthorizationAttributes {
    requireNonNull(user, "user");
    requireNonNull(verb, "verb");
    requireNonNull(apiGroup, "apiGroup");
    requireNonNull(apiVersion, "apiVersion");
    requireNonNull(resource, "resource");
    requireNonNull(subresource, "subresource");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(path, "path");
  }

  /**
   * The same request with another verb (apply also needs {@code create} on a missing object).
   *
   * @param newVerb the verb
   * @return the new attributes
   */
  public AuthorizationAttributes withVerb(String newVerb) {
    return new AuthorizationAttributes(user, newVerb, resourceRequest, apiGroup, apiVersion,
        resource, subresource, namespace, name, path);
  }
}
