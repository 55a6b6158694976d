/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.Value;

/**
 * A partial object merged into an object without a schema, as structured-merge-diff merges
 * untyped values: maps field by field, lists and scalars replaced.
 */
final class SchemalessMerge {
  private SchemalessMerge() {}

  static MapValue merge(MapValue object, MapValue patch) {
    return (MapValue) mergeValue(object, patch);
  }

  private static Value mergeValue(Value live, Value patch) {
    if (!(live instanceof MapValue l) || !(patch instanceof MapValue p)) {
      return patch;
    }
    MapValue out = l;
    for (int i = 0; i < p.size(); i++) {
      String key = p.keyAt(i);
      Value v = p.valueAt(i);
      Value existing = out.getOrNull(key);
      out = out.with(key, existing == null || v instanceof NullValue ? v : mergeValue(existing, v));
    }
    return out;
  }
}
