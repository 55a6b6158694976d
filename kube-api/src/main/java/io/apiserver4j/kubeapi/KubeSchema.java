/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Map;

/**
 * The schema of the built-in kinds in structured-merge-diff's format, with what SMD does not
 * say.
 *
 * @param smd {@code {types: [...]}}: every type the served kinds use (named as kube's OpenAPI
 *     names them, e.g. {@code io.k8s.api.core.v1.PodSpec}), for
 *     {@code io.apiserver4j.merge.Schema.fromSmdValue}
 * @param patchTags strategic merge patch metadata by type and field: {@code <strategies>} or
 *     {@code <strategies>/<mergeKey>}, e.g. {@code merge/name}, {@code retainKeys},
 *     {@code merge,retainKeys/name}
 * @param zeros by type and field, what kube's Go structs encode for a field nobody set
 *     ({@code {}} for non-pointer structs, {@code ""}/{@code 0}/{@code false}/{@code null} for
 *     fields without {@code omitempty})
 * @param goTypes by type and field, the Go type of fields SMD types only as {@code numeric} or
 *     {@code string}: {@code int32}, {@code int64}, {@code float64}, {@code []uint8} (base64 in
 *     JSON), and slices ({@code []int64}) or maps ({@code map[string][]uint8}) of them, which
 *     kube's decoder rejects values these types cannot hold; and of fields of named non-struct
 *     Go types, as Go prints them in decoding errors ({@code v1.Protocol},
 *     {@code []v1.Capability}, {@code v1.ResourceList}, {@code types.UID})
 */
public record KubeSchema(MapValue smd, Map<String, Map<String, String>> patchTags,
    Map<String, Map<String, Value>> zeros, Map<String, Map<String, String>> goTypes) {

  /**
   * Checks that {@code smd} is not null and copies the maps.
   *
   * @throws NullPointerException when a component is null
   * @param smd see the record component
   * @param patchTags see the record component
   * @param zeros see the record component
   * @param goTypes see the record component
   */
  public KubeSchema {
    requireNonNull(smd, "smd");
    patchTags = Map.copyOf(patchTags);
    zeros = Map.copyOf(zeros);
    goTypes = Map.copyOf(goTypes);
  }
}
