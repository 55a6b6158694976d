/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import io.apiserver4j.kubeapi.internal.KubeApiData;
import java.util.List;

/**
 * The Kubernetes 1.36 built-in API as data: the 68 resources a kube-apiserver serves by default
 * (22 GA group versions, 45 subresources), the schema of their kinds and their OpenAPI
 * definitions. Generated from the upstream API definitions by
 * {@code io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator} (see NOTICE).
 *
 * <p>The methods without a {@link KubeVersion} answer for the newest release, 1.36; those with
 * one for any release of {@link KubeVersion#all()} (what {@code --emulated-version} serves).
 * Data is loaded from the jar on first use of each part of each release; everything returned is
 * immutable and thread-safe.
 */
public final class KubeApi {
  private KubeApi() {}

  /**
   * {@return every served resource, core group first, then the groups in kube-apiserver's order,
   * then by group version and name}
   */
  public static List<KubeResource> resources() {
    return KubeApiData.resources();
  }

  /**
   * {@return the structured-merge-diff schema of the served kinds, with patch tags and Go zero
   * values}
   */
  public static KubeSchema schema() {
    return KubeApiData.schema();
  }

  /**
   * The OpenAPI v2 definitions of the served kinds, their lists and every type they use, by
   * name, as kube-apiserver 1.36 publishes them (descriptions, formats, enums, required fields,
   * {@code x-kubernetes-*} extensions; references are {@code #/definitions/<name>}).
   *
   * @return the definitions, an object by definition name
   */
  public static io.apiserver4j.core.MapValue openApiDefinitions() {
    return KubeApiData.openApiDefinitions();
  }

  /**
   * {@return every resource {@code version} serves by default, ordered as {@link #resources()}}
   *
   * @param version the release
   */
  public static List<KubeResource> resources(KubeVersion version) {
    return KubeApiData.resources(java.util.Objects.requireNonNull(version, "version"));
  }

  /**
   * {@return the structured-merge-diff schema of the kinds {@code version} serves, as
   * {@link #schema()} has it for 1.36}
   *
   * @param version the release
   */
  public static KubeSchema schema(KubeVersion version) {
    return KubeApiData.schema(java.util.Objects.requireNonNull(version, "version"));
  }

  /**
   * {@return the OpenAPI v2 definitions of the kinds {@code version} serves, as kube-apiserver
   * of that release publishes them (see {@link #openApiDefinitions()})}
   *
   * @param version the release
   */
  public static io.apiserver4j.core.MapValue openApiDefinitions(KubeVersion version) {
    return KubeApiData.openApiDefinitions(java.util.Objects.requireNonNull(version, "version"));
  }
}
