/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders values the way Go's {@code fmt} prints the {@code interface{}} trees that kube's patch
 * code formats into its error messages, so that our messages carry the same text.
 */
final class GoText {
  private GoText() {}

  /** Go's {@code %v}. */
  static String v(Value value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value, 'v');
    return sb.toString();
  }

  /** Go's {@code %s}: strings as they are, anything else as Go's "bad verb" notation. */
  static String s(Value value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value, 's');
    return sb.toString();
  }

  /** Go's {@code %v} of a slice of values ({@code []interface{}}). */
  static String v(List<? extends Value> values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(' ');
      }
      append(sb, values.get(i), 'v');
    }
    return sb.append(']').toString();
  }

  /** {@code reflect.TypeOf(x)} printed with {@code %s}, for a value decoded by encoding/json. */
  static String goType(Value value) {
    switch (value.kind()) {
      case MAP: return "map[string]interface {}";
      case LIST: return "[]interface {}";
      case STRING: return "string";
      case INTEGER: return "int64";
      case FLOAT: return "float64";
      case BOOLEAN: return "bool";
      default: return "%!s(<nil>)";
    }
  }

  private static void append(StringBuilder sb, Value value, char verb) {
    if (value instanceof StringValue s) {
      sb.append(s.value());
    } else if (value instanceof NullValue) {
      sb.append(verb == 'v' ? "<nil>" : "%!s(<nil>)");
    } else if (value instanceof MapValue m) {
      List<String> keys = new ArrayList<>(m.size());
      for (int i = 0; i < m.size(); i++) {
        keys.add(m.keyAt(i));
      }
      // fmt prints maps with their keys sorted (byte order for strings).
      keys.sort(Values::compareStrings);
      sb.append("map[");
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        sb.append(keys.get(i)).append(':');
        append(sb, m.getOrNull(keys.get(i)), verb);
      }
      sb.append(']');
    } else if (value instanceof ListValue l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        append(sb, l.get(i), verb);
      }
      sb.append(']');
    } else {
      String text = scalar(value);
      if (verb == 'v') {
        sb.append(text);
      } else {
        sb.append("%!s(").append(goType(value)).append('=').append(text).append(')');
      }
    }
  }

  private static String scalar(Value value) {
    if (value instanceof IntegerValue i) {
      return Long.toString(i.value());
    }
    if (value instanceof BooleanValue b) {
      return Boolean.toString(b.value());
    }
    return formatFloat(((FloatValue) value).value());
  }

  /** {@code strconv.FormatFloat(d, 'g', -1, 64)}, which is what {@code %v} prints. */
  static String formatFloat(double d) {
    return GoStrings.formatFloatV(d);
  }
}
