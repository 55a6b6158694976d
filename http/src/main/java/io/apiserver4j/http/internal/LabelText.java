package io.apiserver4j.http.internal;

import static io.apiserver4j.core.Nested.list;
import static io.apiserver4j.core.Nested.map;
import static io.apiserver4j.core.Nested.str;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.List;

/** Labels and label selectors as kube's printers show them. */
final class LabelText {
  private LabelText() {}

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
