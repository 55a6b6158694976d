package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.internal.BuiltinKinds;
import io.apiserver4j.merge.Schema;
import java.util.List;

/**
 * The kinds an {@link ApiServer} serves by default, with the schema apiserver4j defines for them
 * (merge semantics of every list and map, strategic merge patch metadata): Namespace, ConfigMap,
 * Secret, ServiceAccount, Event, Service, Pod (core/v1), Deployment, StatefulSet, DaemonSet
 * (apps/v1), Job (batch/v1), CustomResourceDefinition (apiextensions.k8s.io/v1), plus the types
 * they use and autoscaling/v1 Scale.
 */
public final class BuiltinResources {
  private BuiltinResources() {}

  /** Fresh definitions of the built-in kinds, in registration order. */
  public static List<ResourceDefinition> definitions() {
    return BuiltinKinds.definitions();
  }

  /** The schema of every built-in type (type names as kube's OpenAPI names them). */
  public static Schema schema() {
    return BuiltinKinds.schema();
  }
}
