/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

/**
 * Where a schema node sits, kept as a parent chain so that building it costs nothing until an
 * error needs the text (Kubernetes' field-path notation: {@code a.b[key].c[0]}).
 */
final class SchemaPath {
  private final SchemaPath parent;
  private final String segment;

  private SchemaPath(SchemaPath parent, String segment) {
    this.parent = parent;
    this.segment = segment;
  }

  static SchemaPath root(String name) {
    return new SchemaPath(null, name);
  }

  SchemaPath field(String name) {
    return new SchemaPath(this, "." + name);
  }

  SchemaPath key(String key) {
    return new SchemaPath(this, "[" + key + "]");
  }

  SchemaPath index(int i) {
    return new SchemaPath(this, "[" + i + "]");
  }

  OpenApiSchemaException error(String problem) {
    return new OpenApiSchemaException(toString(), problem);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    append(sb);
    return sb.toString();
  }

  private void append(StringBuilder sb) {
    if (parent != null) {
      parent.append(sb);
    }
    sb.append(segment);
  }
}
