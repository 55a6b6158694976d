package io.apiserver4j.admission.policy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * What admission policies read from the server beside the request: namespaces, parameter
 * objects and the matching of {@code matchConstraints}/{@code matchResources}. The API server
 * implements it over its storage; tests over maps. Implementations must be thread-safe.
 */
public interface PolicyContext {

  /** The namespace object {@code name}, as stored; empty when there is none. */
  Optional<MapValue> namespace(String name);

  /**
   * Where parameter objects of {@code apiVersion}/{@code kind} live (built-in kinds and custom
   * resources alike); empty when the server serves no such kind.
   */
  Optional<ParamSource> params(String apiVersion, String kind);

  /**
   * Whether the request matches a policy's {@code matchConstraints} or a binding's
   * {@code matchResources} ({@code MatchResources}: resourceRules, excludeResourceRules,
   * namespaceSelector, objectSelector, matchPolicy), as kube's policy matcher.
   *
   * @throws io.apiserver4j.core.StatusException when the constraints cannot be evaluated (e.g.
   *     a bad selector); the policy's failurePolicy then decides
   */
  boolean matches(MapValue matchResources, AdmissionAttributes attributes);

  /**
   * What {@code authorizer} in expressions asks, for the request's user; allows everything
   * unless the server has an authorizer.
   */
  default CelAuthorizer authorizer(AdmissionAttributes attributes) {
    return CelAuthorizer.allowAll();
  }
}
