/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.KubeApi;
import io.apiserver4j.kubeapi.KubeVersion;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kube-apiserver's own OpenAPI definitions of the built-in kinds ({@link KubeApi}) of the
 * release the server serves (1.36 or an emulated older one), in the
 * OpenAPI v3 form kube publishes under {@code /openapi/v3}: references point into
 * {@code #/components/schemas/}, and a reference with siblings (a description, a default) is
 * wrapped in {@code allOf}. They carry what the SMD schema cannot: descriptions (for
 * {@code kubectl explain}), formats, enums, required fields and the strategic merge patch
 * extensions including {@code retainKeys}. Thread-safe; converted once per type.
 */
final class KubeDefinitions {
  private static final String V2_PREFIX = "#/definitions/";
  private static final String V3_PREFIX = "#/components/schemas/";
  private static final Map<KubeVersion, ConcurrentHashMap<String, MapValue>> V3 =
      new ConcurrentHashMap<>();

  private KubeDefinitions() {}

  /** The release of built-in resource {@code d}, by its schema; empty for other resources. */
  static Optional<KubeVersion> release(ResourceDefinition d) {
    return d.customResource() ? Optional.empty() : BuiltinResources.version(d.schema());
  }

  /** The release of the built-in resources among {@code definitions}, else the newest. */
  static KubeVersion releaseOf(List<ResourceDefinition> definitions) {
    for (ResourceDefinition d : definitions) {
      Optional<KubeVersion> v = release(d);
      if (v.isPresent()) {
        return v.get();
      }
    }
    return KubeVersion.latest();
  }

  /** Whether {@code d} is a built-in resource whose kind kube's definitions describe. */
  static boolean covers(ResourceDefinition d) {
    return release(d).map(v -> has(v, d.schemaType())).orElse(false);
  }

  static boolean has(KubeVersion version, String name) {
    return KubeApi.openApiDefinitions(version).containsKey(name);
  }

  /** The v2 definition of {@code name}, as kube's {@code /openapi/v2} of that release has it. */
  static MapValue v2(KubeVersion version, String name) {
    return (MapValue) KubeApi.openApiDefinitions(version).getOrNull(name);
  }

  /** {@code name} and every type it refers to, directly or not, in the v3 form, by name. */
  static Map<String, MapValue> closure(KubeVersion version, String name) {
    Map<String, MapValue> out = new LinkedHashMap<>();
    Deque<String> pending = new ArrayDeque<>();
    pending.add(name);
    while (!pending.isEmpty()) {
      String n = pending.poll();
      if (out.containsKey(n) || !has(version, n)) {
        continue;
      }
      out.put(n, V3.computeIfAbsent(version, v -> new ConcurrentHashMap<>())
          .computeIfAbsent(n, k -> (MapValue) toV3(v2(version, k))));
      refs(v2(version, n), pending);
    }
    return out;
  }

  /** The v2 definitions of {@code name} and every type it refers to, by name. */
  static Map<String, MapValue> closureV2(KubeVersion version, String name) {
    Map<String, MapValue> out = new LinkedHashMap<>();
    Deque<String> pending = new ArrayDeque<>();
    pending.add(name);
    while (!pending.isEmpty()) {
      String n = pending.poll();
      if (!out.containsKey(n) && has(version, n)) {
        out.put(n, v2(version, n));
        refs(v2(version, n), pending);
      }
    }
    return out;
  }

  private static void refs(Value v, Deque<String> out) {
    if (v instanceof MapValue m) {
      m.forEach((k, x) -> {
        if (k.equals("$ref") && x instanceof StringValue s) {
          out.add(s.value().substring(V2_PREFIX.length()));
        } else {
          refs(x, out);
        }
      });
    } else if (v instanceof ListValue l) {
      l.items().forEach(x -> refs(x, out));
    }
  }

  private static Value toV3(Value v) {
    if (v instanceof MapValue m) {
      if (m.getOrNull("$ref") instanceof StringValue ref) {
        MapValue target = MapValue.ofEntries("$ref",
            Value.of(V3_PREFIX + ref.value().substring(V2_PREFIX.length())));
        if (m.size() == 1) {
          return target;
        }
        MapValue.Builder b = MapValue.builder().put("allOf", ListValue.of(java.util.List.of(
            target)));
        m.forEach((k, x) -> {
          if (!k.equals("$ref")) {
            b.put(k, toV3(x));
          }
        });
        return b.build();
      }
      MapValue.Builder b = MapValue.builder(m.size());
      m.forEach((k, x) -> b.put(k, k.equals("properties") || k.equals("x-kubernetes-group-version-kind")
          ? toV3Children(x) : toV3(x)));
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      l.items().forEach(x -> b.add(toV3(x)));
      return b.build();
    }
    return v;
  }

  // Property maps hold schemas by field name; a field may be called "$ref" only in theory.
  private static Value toV3Children(Value v) {
    if (!(v instanceof MapValue m)) {
      return toV3(v);
    }
    MapValue.Builder b = MapValue.builder(m.size());
    m.forEach((k, x) -> b.put(k, toV3(x)));
    return b.build();
  }
}
