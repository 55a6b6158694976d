/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A value as kube's CEL rules see it: property names that are not CEL identifiers are escaped
 * ({@code foo-bar} is {@code self.foo__dash__bar}, {@code namespace} is
 * {@code self.__namespace__}), map keys (additionalProperties) are not, and the
 * {@code metadata} of an object that is a resource (the root, embedded resources) shows only
 * {@code name} and {@code generateName}. Unchanged subtrees are returned as they are.
 */
final class CelView {
  static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as",
      "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop",
      "package", "namespace", "return", "var", "void", "while");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private CelView() {}

  /** The CEL name of a property, as kube's {@code EscapeName}; empty when not expressible. */
  static String escape(String name) {
    if (RESERVED.contains(name)) {
      return "__" + name + "__";
    }
    if (IDENTIFIER.matcher(name).matches() && !name.contains("__")) {
      return name;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
        sb.append("__underscores__");
        i++;
      } else if (c == '.') {
        sb.append("__dot__");
      } else if (c == '-') {
        sb.append("__dash__");
      } else if (c == '/') {
        sb.append("__slash__");
      } else {
        sb.append(c);
      }
    }
    String out = sb.toString();
    return IDENTIFIER.matcher(out).matches() ? out : "";
  }

  static Value of(SchemaNode s, Value v, boolean resource) {
    if (s.celPlain && !resource) {
      return v;
    }
    if (v instanceof MapValue m) {
      if (s.properties.isEmpty() && s.additionalProperties != null) {
        MapValue.Builder b = null;
        for (int i = 0; i < m.size(); i++) {
          Value child = m.valueAt(i);
          Value out = of(s.additionalProperties, child, false);
          if (out != child) {
            b = b == null ? m.toBuilder() : b;
            b.put(m.keyAt(i), out);
          }
        }
        return b == null ? m : b.build();
      }
      boolean isResource = resource || s.embeddedResource;
      MapValue.Builder b = null;
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        Value child = m.valueAt(i);
        String name = viewName(s, k);
        Value out;
        // kube treats a declared field set to null as absent
        boolean absent = child.isNull() && s.properties.containsKey(k);
        if (absent) {
          out = null;
        } else if (isResource && k.equals("metadata") && child instanceof MapValue meta) {
          out = resourceMeta(meta, s.declaredResourceMeta());
        } else {
          SchemaNode cs = s.properties.get(k);
          out = cs == null ? child : of(cs, child, false);
        }
        if (b == null && (absent || out != child || !name.equals(k))) {
          b = MapValue.builder(m.size());
          for (int j = 0; j < i; j++) {
            b.put(viewName(s, m.keyAt(j)), m.valueAt(j));
          }
        }
        if (b != null && !absent) {
          b.put(name, out);
          if (!name.equals(k) && RESERVED.contains(k)) {
            // selectable by its own name too, as kube's values unescape the names asked for
            b.put(k, out);
          }
        }
      }
      return b == null ? m : b.build();
    }
    if (v instanceof ListValue l && s.items != null) {
      return l.map((i, item) -> of(s.items, item, false));
    }
    return v;
  }

  /**
   * The name of a property in the view: escaped, or as it is when CEL cannot spell it (kube's
   * values keep such a property: no rule can select it, but it counts in the object's equality
   * and size).
   */
  private static String viewName(SchemaNode s, String k) {
    String name = s.celNames.getOrDefault(k, k);
    return name.isEmpty() ? k : name;
  }

  /**
   * A resource's metadata as kube declares it: name and generateName, and the fields its schema
   * declares (embedded resources may declare more).
   */
  private static Value resourceMeta(MapValue meta, SchemaNode declared) {
    java.util.function.Predicate<String> kept = k -> k.equals("name")
        || k.equals("generateName") || declared != null && declared.properties.containsKey(k);
    if (meta.asMap().keySet().stream().allMatch(kept)) {
      return declared == null ? meta : of(declared, meta, false);
    }
    MapValue.Builder b = MapValue.builder(2);
    for (int i = 0; i < meta.size(); i++) {
      if (kept.test(meta.keyAt(i))) {
        b.put(meta.keyAt(i), meta.valueAt(i));
      }
    }
    MapValue out = b.build();
    return declared == null ? out : of(declared, out, false);
  }
}
