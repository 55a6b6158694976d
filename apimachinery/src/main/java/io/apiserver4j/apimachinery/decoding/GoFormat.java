/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/** Go's {@code fmt} of the {@code interface{}} trees kube formats into error messages. */
public final class GoFormat {
  private GoFormat() {}

  /**
   * {@code %+v} (for these trees the same as {@code %v}): {@code map[k:v ...]} with keys in byte
   * order, {@code [a b]}, strings bare, {@code <nil>}, floats as {@code strconv}'s shortest 'g'.
   *
   * @param value the value
   * @return the text
   */
  public static String plusV(Value value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Value value) {
    if (value instanceof StringValue s) {
      sb.append(s.value());
    } else if (value instanceof MapValue m) {
      List<String> keys = new ArrayList<>(m.size());
      for (int i = 0; i < m.size(); i++) {
        keys.add(m.keyAt(i));
      }
      keys.sort(Values::compareStrings);
      sb.append("map[");
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        sb.append(keys.get(i)).append(':');
        append(sb, m.getOrNull(keys.get(i)));
      }
      sb.append(']');
    } else if (value instanceof ListValue l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        append(sb, l.get(i));
      }
      sb.append(']');
    } else if (value instanceof IntegerValue i) {
      sb.append(i.value());
    } else if (value instanceof FloatValue f) {
      sb.append(GoStrings.formatFloatV(f.value()));
    } else if (value instanceof BooleanValue b) {
      sb.append(b.value());
    } else {
      sb.append("<nil>");
    }
  }
}
