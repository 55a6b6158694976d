/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON path such as {@code .spec.color} resolved against a structural schema, as kube's
 * {@code ValidFieldPath} without array notation (selectable fields): each {@code .name} is a
 * property, or a key where the schema has additionalProperties instead of properties.
 *
 * @param path the field path as kube prints it ({@code spec.labels[key]})
 * @param root the first element of the path
 * @param schema the schema of the field the path ends at
 */
record FieldPath(String path, String root, SchemaNode schema) {

  /**
   * Resolves {@code jsonPath} against {@code schema}.
   *
   * @throws IllegalArgumentException with kube's reason when the path refers to no field
   */
  static FieldPath resolve(SchemaNode schema, String jsonPath) {
    List<String> tokens = tokens(jsonPath);
    StringBuilder path = new StringBuilder();
    String root = "";
    SchemaNode s = schema;
    for (int i = 0; i < tokens.size(); i++) {
      String tok = tokens.get(i);
      if (tok.equals("[")) {
        throw new IllegalArgumentException("array notation is not allowed");
      }
      if (!tok.equals(".")) {
        throw new IllegalArgumentException("expected [ or . but got: " + tok);
      }
      if (++i >= tokens.size()) {
        throw new IllegalArgumentException("unexpected end of JSON path");
      }
      String name = tokens.get(i);
      if (s != null && !s.properties.isEmpty()) {
        s = s.properties.get(name);
        if (s == null) {
          throw new IllegalArgumentException("does not refer to a valid field");
        }
        path.append(path.length() == 0 ? "" : ".").append(name);
      } else if (s != null && s.additionalProperties != null) {
        s = s.additionalProperties;
        path.append('[').append(name).append(']');
      } else {
        throw new IllegalArgumentException("does not refer to a valid field");
      }
      if (root.isEmpty()) {
        root = name;
      }
    }
    return new FieldPath(path.toString(), root, s);
  }

  // kube's scanner: '.', '[' and ']' are tokens of their own, a single-quoted string is one
  // token whatever it holds, and the text between delimiters is a token.
  private static List<String> tokens(String p) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < p.length()) {
      char c = p.charAt(i);
      if (c == '.' || c == '[' || c == ']') {
        out.add(String.valueOf(c));
        i++;
        continue;
      }
      int end = i + 1;
      if (c == '\'') {
        while (end < p.length() && !(p.charAt(end) == '\'' && p.charAt(end - 1) != '\\')) {
          end++;
        }
        end = Math.min(end + 1, p.length());
      } else {
        while (end < p.length() && ".[]".indexOf(p.charAt(end)) < 0) {
          end++;
        }
      }
      out.add(p.substring(i, end));
      i = end;
    }
    return out;
  }
}
