/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.merge.Schema;
import java.util.List;
import io.apiserver4j.apiserver.internal.BuiltinSchema;

/**
 * The resources an {@link ApiServer} serves by default: the 68 resources of a Kubernetes 1.36
 * kube-apiserver in its 22 GA group versions (see {@code io.apiserver4j.kubeapi.KubeApi}), with
 * their discovery facts, subresources and the generated schema of their kinds (merge semantics
 * of every list and map, strategic merge patch metadata), plus autoscaling/v1 Scale.
 */
public final class BuiltinResources {
  private BuiltinResources() {}

  /** The definitions of the built-in resources, in registration order (immutable). */
  public static List<ResourceDefinition> definitions() {
    return BuiltinApi.load().definitions();
  }

  /** The schema of every built-in type (type names as kube's OpenAPI names them). */
  public static Schema schema() {
    return BuiltinSchema.schema();
  }
}
