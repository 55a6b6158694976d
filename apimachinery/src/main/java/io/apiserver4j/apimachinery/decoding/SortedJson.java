/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON as Go's {@code encoding/json} writes a {@code map[string]interface{}}: keys sorted by byte
 * order at every level (kube encodes unstructured objects, and so the last-applied annotation,
 * this way).
 */
public final class SortedJson {
  private SortedJson() {}

  /**
   * Compact JSON with map keys sorted, as Go's encoder writes maps.
   *
   * @param v the value
   * @return the JSON text
   */
  public static String write(Value v) {
    return Json.write(sorted(v));
  }

  /**
   * What {@code json.NewEncoder(w).Encode(obj)} writes: the sorted JSON and a newline.
   *
   * @param v the value
   * @return the line
   */
  public static String encodeLine(Value v) {
    return write(v) + "\n";
  }

  /**
   * {@code v} with the keys of every map sorted.
   *
   * @param v the value
   * @return the sorted value
   */
  public static Value sorted(Value v) {
    if (v instanceof MapValue m) {
      List<String> keys = new ArrayList<>(m.size());
      for (int i = 0; i < m.size(); i++) {
        keys.add(m.keyAt(i));
      }
      keys.sort(Values::compareStrings);
      MapValue.Builder b = MapValue.builder(m.size());
      for (String k : keys) {
        b.put(k, sorted(m.getOrNull(k)));
      }
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      for (Value item : l.items()) {
        b.add(sorted(item));
      }
      return b.build();
    }
    return v;
  }
}
