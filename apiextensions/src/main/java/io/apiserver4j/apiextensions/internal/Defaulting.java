/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Schema defaulting and pruning of custom resources as apiextensions-apiserver does them:
 * {@code default} applied to absent fields (and to nulls of non-nullable fields), nulls of
 * non-nullable fields without default dropped; unknown fields pruned unless
 * {@code x-kubernetes-preserve-unknown-fields}, with {@code apiVersion}, {@code kind} and
 * {@code metadata} kept at the root and in embedded resources. Pure functions over immutable
 * values; unchanged subtrees are returned as they are.
 */
public final class Defaulting {
  private static final Set<String> TYPE_META = Set.of("apiVersion", "kind", "metadata");
  private static final Set<String> OBJECT_META = Set.of("name", "generateName", "namespace",
      "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
      "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
      "ownerReferences", "finalizers", "managedFields");

  private Defaulting() {}

  /** {@code value} with the schema's defaults applied. */
  public static Value applyDefaults(SchemaNode s, Value value) {
    if (value instanceof MapValue m) {
      MapValue.Builder b = null;
      for (Map.Entry<String, SchemaNode> p : s.properties.entrySet()) {
        SchemaNode ps = p.getValue();
        Value current = m.getOrNull(p.getKey());
        boolean nonNullableNull = current != null && current.isNull() && !ps.nullable;
        if (current == null || nonNullableNull) {
          if (ps.defaultValue != null) {
            b = b == null ? m.toBuilder() : b;
            b.put(p.getKey(), ps.defaultValue);
          } else if (nonNullableNull) {
            b = b == null ? m.toBuilder() : b;
            b.remove(p.getKey());
          }
        }
      }
      MapValue r = b == null ? m : b.build();
      MapValue.Builder c = null;
      for (int i = 0; i < r.size(); i++) {
        String k = r.keyAt(i);
        SchemaNode child = s.child(k).orElse(null);
        if (child == null) {
          continue;
        }
        Value v = r.valueAt(i);
        Value d = applyDefaults(child, v);
        if (d != v) {
          c = c == null ? r.toBuilder() : c;
          c.put(k, d);
        }
      }
      return c == null ? r : c.build();
    }
    if (value instanceof ListValue l && s.items != null) {
      return l.map((i, v) -> applyDefaults(s.items, v));
    }
    return value;
  }

  /**
   * {@code value} without the fields {@code s} does not know; each pruned field's path is
   * reported to {@code pruned} as kube reports unknown fields ({@code spec.foo},
   * {@code spec.items[0].bar}).
   */
  public static Value prune(SchemaNode s, Value value, boolean resourceRoot,
      Consumer<String> pruned) {
    return prune(s, value, resourceRoot, "", pruned);
  }

  private static Value prune(SchemaNode s, Value value, boolean root, String path,
      Consumer<String> pruned) {
    if (value instanceof MapValue m) {
      boolean embedded = root || s.embeddedResource;
      MapValue.Builder b = null;
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        Value v = m.valueAt(i);
        String at = path.isEmpty() ? k : path + "." + k;
        Value out;
        if (embedded && TYPE_META.contains(k)) {
          SchemaNode ms = s.properties.get(k);
          if (k.equals("metadata") && v instanceof MapValue meta && !root) {
            out = pruneMeta(meta, at, pruned);
          } else if (k.equals("metadata") && ms != null && v instanceof MapValue) {
            out = v;
          } else {
            out = v;
          }
        } else {
          SchemaNode child = s.child(k).orElse(null);
          if (child != null) {
            out = prune(child, v, false, at, pruned);
          } else if (s.preserveUnknownFields) {
            out = v;
          } else {
            pruned.accept(at);
            out = null;
          }
        }
        if (out != v && b == null) {
          b = MapValue.builder(m.size());
          for (int j = 0; j < i; j++) {
            b.put(m.keyAt(j), m.valueAt(j));
          }
        }
        if (b != null && out != null) {
          b.put(k, out);
        }
      }
      return b == null ? m : b.build();
    }
    if (value instanceof ListValue l && s.items != null) {
      return l.map((i, v) -> prune(s.items, v, false, path + "[" + i + "]", pruned));
    }
    return value;
  }

  private static Value pruneMeta(MapValue meta, String path, Consumer<String> pruned) {
    MapValue r = meta;
    for (String k : List.copyOf(meta.asMap().keySet())) {
      if (!OBJECT_META.contains(k)) {
        pruned.accept(path + "." + k);
        r = r.without(k);
      }
    }
    return r;
  }
}
