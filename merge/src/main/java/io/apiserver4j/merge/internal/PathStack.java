/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.PathElement;
import java.util.Arrays;

/**
 * The path of the node a walker is visiting. Map keys are pushed as plain strings and turned
 * into {@link FieldName}s only when a path is materialized (on error), so walking valid values
 * allocates nothing for paths.
 */
final class PathStack {
  private Object[] items = new Object[16];
  private int depth;

  void push(Object stringOrElement) {
    if (depth == items.length) {
      items = Arrays.copyOf(items, depth * 2);
    }
    items[depth++] = stringOrElement;
  }

  void pop() {
    items[--depth] = null;
  }

  FieldPath toPath() {
    PathElement[] out = new PathElement[depth];
    for (int i = 0; i < depth; i++) {
      Object o = items[i];
      out[i] = o instanceof String s ? new FieldName(s) : (PathElement) o;
    }
    return FieldPath.of(out);
  }
}
