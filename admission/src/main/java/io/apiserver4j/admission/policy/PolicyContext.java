/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.matching.EquivalentResources;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * What admission policies read from the server beside the request: namespaces (for namespace
 * selectors and {@code namespaceObject}), equivalent resources (for {@code matchPolicy:
 * Equivalent}), parameter objects and the authorizer. The API server implements it over its
 * storage; tests over maps. Implementations must be thread-safe.
 */
public interface PolicyContext {

  /**
   * Reads Namespace objects.
   *
   * @return the namespace lookup
   */
  NamespaceLookup namespaces();

  /**
   * The served resources' equivalents.
   *
   * @return the equivalents; by default {@link EquivalentResources#NONE}
   */
  default EquivalentResources equivalents() {
    return EquivalentResources.NONE;
  }

  /**
   * Where parameter objects of {@code apiVersion}/{@code kind} live (built-in kinds and custom
   * resources alike); empty when the server serves no such kind.
   *
   * @param apiVersion the parameter kind's API version
   * @param kind the parameter kind
   * @return the parameter source
   */
  Optional<ParamSource> params(String apiVersion, String kind);

  /**
   * Merges a MutatingAdmissionPolicy's {@code Object{...}} into an object of {@code kind}, as
   * kube merges an apply configuration with structured-merge-diff. The default knows no
   * schema: maps are merged field by field, everything else is replaced; servers override it
   * with the kind's schema (associative lists merged by key).
   *
   * @throws IllegalArgumentException with the reason when the patch does not fit the object
   * @param kind the object's kind
   * @param object the object
   * @param patch the policy's {@code Object{...}} as a map
   * @return the merged object
   */
  default MapValue applyConfiguration(GroupVersionKind kind, MapValue object, MapValue patch) {
    return SchemalessMerge.merge(object, patch);
  }

  /**
   * What {@code authorizer} in expressions asks, for the request's user; allows everything
   * unless the server has an authorizer.
   *
   * @param attributes the request
   * @return the authorizer
   */
  default CelAuthorizer authorizer(AdmissionAttributes attributes) {
    return CelAuthorizer.allowAll();
  }
}
