package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * What table printers read from objects: null-tolerant nested reads with Go's zero values for
 * absent fields, and kube's formatting of labels, selectors and ages.
 */
final class Cells {
  private Cells() {}

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
    Value x = at(v, path);
    if (x instanceof StringValue s) {
      return s.value();
    }
    if (x instanceof IntegerValue i) {
      return Long.toString(i.value());
    }
    return "";
  }

  static long integer(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof IntegerValue i) {
      return i.value();
    }
    return x instanceof FloatValue f ? (long) f.value() : 0;
  }

  static boolean has(Value v, String... path) {
    Value x = at(v, path);
    return x != null && !x.isNull();
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

  static String orNone(String s) {
    return s.isEmpty() ? "<none>" : s;
  }

  /** A string map as {@code k=v,k2=v2} sorted by key ({@code labels.FormatLabels}). */
  static String formatLabels(MapValue m) {
    if (m.isEmpty()) {
      return "<none>";
    }
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      keys.add(m.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      out.add(k + "=" + str(m, k));
    }
    return String.join(",", out);
  }

  /** A {@code LabelSelector} as {@code metav1.FormatLabelSelector} writes it. */
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
      List<String> values = new ArrayList<>();
      for (Value x : list(e, "values")) {
        values.add(x instanceof StringValue s ? s.value() : "");
      }
      switch (str(e, "operator")) {
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
          parts.add(key + " " + str(e, "operator") + " " + values);
      }
    }
    String s = String.join(",", parts);
    return s.isEmpty() ? "<none>" : s;
  }

  /** The age of an object: the human duration since its creation. */
  static String age(MapValue o, Instant now) {
    return since(str(o, "metadata", "creationTimestamp"), now);
  }

  static String since(String timestamp, Instant now) {
    if (timestamp.isEmpty()) {
      return "<unknown>";
    }
    try {
      return human(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  /** apimachinery's {@code HumanDuration}: {@code 45s}, {@code 3m20s}, {@code 5h}, {@code 2d3h}. */
  static String human(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = seconds / 3600;
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }

  /** Cells from Java values: strings, longs, ints and booleans; null becomes a JSON null. */
  static List<Value> row(Object... cells) {
    List<Value> out = new ArrayList<>(cells.length);
    for (Object c : cells) {
      if (c instanceof Value v) {
        out.add(v);
      } else if (c instanceof String s) {
        out.add(Value.of(s));
      } else if (c instanceof Long l) {
        out.add(Value.of(l));
      } else if (c instanceof Integer i) {
        out.add(Value.of((long) i));
      } else if (c instanceof Boolean b) {
        out.add(Value.of(b));
      } else {
        out.add(Value.nullValue());
      }
    }
    return out;
  }
}
