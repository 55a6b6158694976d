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
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * Go's {@code fmt} of the {@code interface{}} trees (values decoded by encoding/json) that kube
 * formats into error messages (decoding and patch errors), so that ours carry the same text.
 */
public final class GoFormat {
  private GoFormat() {}

  /**
   * Go's {@code %v} (for these trees the same as {@code %+v}): {@code map[k:v ...]} with keys in
   * byte order, {@code [a b]}, strings bare, {@code <nil>}, floats as {@code strconv}'s shortest
   * 'g'.
   *
   * @param value the value
   * @return the text
   */
  public static String v(Value value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value, 'v');
    return sb.toString();
  }

  /**
   * Go's {@code %v} of a slice of values ({@code []interface{}}).
   *
   * @param values the elements
   * @return the text
   */
  public static String v(List<? extends Value> values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(' ');
      }
      append(sb, values.get(i), 'v');
    }
    return sb.append(']').toString();
  }

  /**
   * Go's {@code %s}: strings as they are, anything else in Go's "bad verb" notation
   * ({@code %!s(int64=1)}).
   *
   * @param value the value
   * @return the text
   */
  public static String s(Value value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value, 's');
    return sb.toString();
  }

  /**
   * {@code reflect.TypeOf(x)} printed with {@code %s}, for a value decoded by encoding/json.
   *
   * @param value the value
   * @return the Go type name
   */
  public static String goType(Value value) {
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

  /**
   * {@code strconv.FormatFloat(d, 'g', -1, 64)}, which is what {@code %v} prints.
   *
   * @param d the number
   * @return the text
   */
  public static String formatFloat(double d) {
    return GoStrings.formatFloatV(d);
  }

  private static void append(StringBuilder sb, Value value, char verb) {
    if (value instanceof StringValue s) {
      sb.append(s.value());
    } else if (value == null || value instanceof NullValue) {
      sb.append(verb == 'v' ? "<nil>" : "%!s(<nil>)");
    } else if (value instanceof MapValue m) {
      List<String> keys = new ArrayList<>(m.size());
      for (int i = 0; i < m.size(); i++) {
        keys.add(m.keyAt(i));
      }
      // fmt prints maps with their keys sorted (byte order for strings)
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
}
