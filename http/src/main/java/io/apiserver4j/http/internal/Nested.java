package io.apiserver4j.http.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/** Null-tolerant reads of nested fields of objects, with Go zero values for absent fields. */
final class Nested {
  private Nested() {}

  static Value at(Value v, String... path) {
    Value cur = v;
    for (String p : path) {
      if (!(cur instanceof MapValue m)) {
        return null;
      }
      cur = m.getOrNull(p);
    }
    return cur;
  }

  static String str(Value v, String... path) {
    return at(v, path) instanceof StringValue s ? s.value() : "";
  }

  static long integer(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof IntegerValue i) {
      return i.value();
    }
    if (x instanceof FloatValue f) {
      return (long) f.value();
    }
    return 0;
  }

  static boolean has(Value v, String... path) {
    Value x = at(v, path);
    return x != null && !(x.kind() == Value.Kind.NULL);
  }

  static boolean bool(Value v, String... path) {
    return at(v, path) instanceof BooleanValue b && b.value();
  }

  static List<Value> list(Value v, String... path) {
    return at(v, path) instanceof ListValue l ? l.items() : List.of();
  }

  static MapValue map(Value v, String... path) {
    return at(v, path) instanceof MapValue m ? m : MapValue.empty();
  }

  /** A string map as {@code k=v,k2=v2} sorted by key, like {@code labels.FormatLabels}. */
  static String formatLabels(MapValue m) {
    if (m.size() == 0) {
      return "<none>";
    }
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      keys.add(m.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    StringBuilder sb = new StringBuilder();
    for (String k : keys) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      Value val = m.getOrNull(k);
      sb.append(k).append('=').append(val instanceof StringValue s ? s.value() : "");
    }
    return sb.toString();
  }

  /**
   * A {@code LabelSelector} map in kube's string form ({@code metav1.FormatLabelSelector}):
   * match labels and expressions, {@code <none>} when empty.
   */
  static String formatLabelSelector(Value selector) {
    if (!(selector instanceof MapValue m)) {
      return "<none>";
    }
    List<String> parts = new ArrayList<>();
    MapValue labels = map(m, "matchLabels");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      keys.add(labels.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    for (String k : keys) {
      parts.add(k + "=" + str(labels, k));
    }
    for (Value e : list(m, "matchExpressions")) {
      String key = str(e, "key");
      String op = str(e, "operator");
      List<String> values = new ArrayList<>();
      for (Value x : list(e, "values")) {
        values.add(x instanceof StringValue s ? s.value() : "");
      }
      switch (op) {
        case "In":
          parts.add(key + " in (" + String.join(",", values) + ")");
          break;
        case "NotIn":
          parts.add(key + " notin (" + String.join(",", values) + ")");
          break;
        case "Exists":
          parts.add(key);
          break;
        case "DoesNotExist":
          parts.add("!" + key);
          break;
        default:
          parts.add(key + " " + op + " " + values);
      }
    }
    String s = String.join(",", parts);
    return s.isEmpty() ? "<none>" : s;
  }
}
