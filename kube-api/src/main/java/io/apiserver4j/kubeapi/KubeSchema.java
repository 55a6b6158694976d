/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The schema of the built-in kinds in structured-merge-diff's format, with what SMD does not
 * say. The SMD types are read one at a time: {@link #typeNames()} lists them without parsing any,
 * {@link #typeDefinition} parses one, so that a program using a few dozen types (the
 * {@code io.apiserver4j.merge.Schema.fromSmdTypes} of them) never parses the others.
 *
 * <p>Immutable and thread-safe.
 */
public final class KubeSchema {
  private final List<String> typeNames;
  private final Function<String, MapValue> definitions;
  private final Map<String, Map<String, String>> patchTags;
  private final Map<String, Map<String, Value>> zeros;
  private final Map<String, Map<String, String>> goTypes;
  private volatile MapValue smd;

  /**
   * The schema of the types called {@code typeNames}, whose SMD definitions {@code definitions}
   * gives, with the maps copied.
   *
   * @param typeNames every type the served kinds use, named as kube's OpenAPI names them (e.g.
   *     {@code io.k8s.api.core.v1.PodSpec}), in definition order
   * @param definitions the SMD definition of each name of {@code typeNames}
   *     ({@code {name: ..., map: {...}}}), null for other names; called on every
   *     {@link #typeDefinition}, from any thread
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
   * @throws NullPointerException when an argument is null
   */
  public KubeSchema(List<String> typeNames, Function<String, MapValue> definitions,
      Map<String, Map<String, String>> patchTags, Map<String, Map<String, Value>> zeros,
      Map<String, Map<String, String>> goTypes) {
    this.typeNames = List.copyOf(typeNames);
    this.definitions = requireNonNull(definitions, "definitions");
    this.patchTags = Map.copyOf(patchTags);
    this.zeros = Map.copyOf(zeros);
    this.goTypes = Map.copyOf(goTypes);
  }

  /**
   * {@return every type the served kinds use, in definition order (sorted by name), named as
   * kube's OpenAPI names them (e.g. {@code io.k8s.api.core.v1.PodSpec})}
   */
  public List<String> typeNames() {
    return typeNames;
  }

  /**
   * The SMD definition of type {@code name}, parsed on each call.
   *
   * @param name the type name
   * @return {@code {name: ..., map: {...}}} (or {@code scalar}, {@code list}); empty when no type
   *     has that name
   */
  public Optional<MapValue> typeDefinition(String name) {
    requireNonNull(name, "name");
    return Optional.ofNullable(definitions.apply(name));
  }

  /**
   * {@return the SMD document of every type, {@code {types: [...]}}, for
   * {@code io.apiserver4j.merge.Schema.fromSmdValue}; parses them all on first call}
   */
  public MapValue smd() {
    MapValue s = smd;
    if (s == null) {
      ListValue.Builder types = ListValue.builder(typeNames.size());
      for (String name : typeNames) {
        types.add(typeDefinition(name).orElseThrow(() -> new IllegalStateException(
            "no definition of type " + name)));
      }
      s = MapValue.ofEntries("types", types.build());
      smd = s;
    }
    return s;
  }

  /**
   * {@return strategic merge patch metadata by type and field: {@code <strategies>} or
   * {@code <strategies>/<mergeKey>}, e.g. {@code merge/name}, {@code retainKeys},
   * {@code merge,retainKeys/name}}
   */
  public Map<String, Map<String, String>> patchTags() {
    return patchTags;
  }

  /**
   * {@return by type and field, what kube's Go structs encode for a field nobody set ({@code {}}
   * for non-pointer structs, {@code ""}/{@code 0}/{@code false}/{@code null} for fields without
   * {@code omitempty})}
   */
  public Map<String, Map<String, Value>> zeros() {
    return zeros;
  }

  /**
   * {@return by type and field, the Go type of fields SMD types only as {@code numeric} or
   * {@code string}, and of fields of named non-struct Go types (see the constructor)}
   */
  public Map<String, Map<String, String>> goTypes() {
    return goTypes;
  }
}
