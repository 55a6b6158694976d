/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.generator;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.TreeMap;

/**
 * JSON as {@code jq -S} prints it, the form of kube's {@code api/discovery} files: keys sorted,
 * two spaces of indent per level, {@code "key": value}, empty lists and objects as {@code []}
 * and {@code {}}.
 */
final class JqJson {
  private JqJson() {}

  /** {@code value} with the keys of every object sorted. */
  static MapValue sorted(MapValue value) {
    return (MapValue) sort(value);
  }

  private static Value sort(Value v) {
    if (v instanceof MapValue m) {
      TreeMap<String, Value> keys = new TreeMap<>();
      m.forEach((k, x) -> keys.put(k, sort(x)));
      MapValue.Builder b = MapValue.builder(keys.size());
      keys.forEach(b::put);
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.items().size());
      l.items().forEach(x -> b.add(sort(x)));
      return b.build();
    }
    return v;
  }

  /** {@code value} printed as jq does, without the final newline. */
  static String write(Value value) {
    StringBuilder out = new StringBuilder();
    write(value, 0, out);
    return out.toString();
  }

  private static void write(Value v, int depth, StringBuilder out) {
    if (v instanceof MapValue m) {
      if (m.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      for (int i = 0; i < m.size(); i++) {
        indent(depth + 1, out);
        out.append(Json.write(Value.of(m.keyAt(i)))).append(": ");
        write(m.valueAt(i), depth + 1, out);
        out.append(i + 1 < m.size() ? ",\n" : "\n");
      }
      indent(depth, out);
      out.append('}');
    } else if (v instanceof ListValue l) {
      if (l.items().isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < l.items().size(); i++) {
        indent(depth + 1, out);
        write(l.items().get(i), depth + 1, out);
        out.append(i + 1 < l.items().size() ? ",\n" : "\n");
      }
      indent(depth, out);
      out.append(']');
    } else {
      // scalars: jq and Jackson agree on strings, booleans and integers
      out.append(Json.write(v));
    }
  }

  private static void indent(int depth, StringBuilder out) {
    out.append("  ".repeat(depth));
  }
}
