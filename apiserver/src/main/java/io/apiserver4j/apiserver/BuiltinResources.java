/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.merge.Schema;
import java.util.List;
import io.apiserver4j.apiserver.internal.BuiltinSchema;

/**
 * The resources an {@link ApiServer} serves by default: the 68 resources of a Kubernetes 1.36
 * kube-apiserver in its 22 GA group versions (see {@code io.apiserver4j.kubeapi.KubeApi}), with
 * their discovery facts, subresources and the generated schema of their kinds (merge semantics
 * of every list and map, strategic merge patch metadata), plus autoscaling/v1 Scale; or those
 * of an older release ({@link #definitions(KubeVersion)}), each with its own schema.
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

  /**
   * The definitions of the resources {@code version} serves by default, in registration order
   * (immutable): what a server built with {@link ApiServer.Builder#emulatedVersion} serves.
   *
   * @param version the release
   */
  public static List<ResourceDefinition> definitions(KubeVersion version) {
    return BuiltinApi.load().definitions(version);
  }

  /**
   * The schema of every built-in type of {@code version}, loaded on first use: the schema of
   * that release's definitions, by which their objects are validated, pruned and merged.
   *
   * @param version the release
   */
  public static Schema schema(KubeVersion version) {
    return BuiltinSchema.schema(requireNonNull(version, "version"));
  }

  /**
   * {@return the release whose built-in schema {@code schema} is, if it is one of
   * {@link #schema(KubeVersion)}}
   *
   * @param schema a definition's schema
   */
  public static java.util.Optional<KubeVersion> version(Schema schema) {
    return BuiltinSchema.version(schema);
  }
}
