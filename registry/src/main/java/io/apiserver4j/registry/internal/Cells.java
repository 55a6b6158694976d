/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.apiserver.TablePrinter.Column;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.kubeapi.KubeApi;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * What table printers read from objects: null-tolerant nested reads with Go's zero values for
 * absent fields, and kube's formatting of labels, selectors and ages; and the columns the
 * built-in printers share. Stateless.
 */
public final class Cells {
  /** kube's {@code Name} column, the object's name. */
  public static final Column NAME = new Column("Name", "string", "name",
      doc("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "name"), 0);
  /** kube's {@code Age} column, the time since the object's creation. */
  public static final Column AGE = column("Age", "string",
      doc("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "creationTimestamp"));

  private Cells() {}

  /** Kube's documentation of {@code field} of OpenAPI type {@code type}, or empty. */
  public static String doc(String type, String field) {
    Value d = at(KubeApi.openApiDefinitions(), type, "properties", field, "description");
    return d instanceof StringValue s ? s.value() : "";
  }

  /** A column {@code kubectl get} shows by default (priority 0). */
  public static Column column(String name, String type, String description) {
    return new Column(name, type, "", description, 0);
  }

  /** A column {@code kubectl get -o wide} adds (priority 1). */
  public static Column wideColumn(String name, String type, String description) {
    return new Column(name, type, "", description, 1);
  }

  /** The object's {@code metadata.name}, or empty. */
  public static String name(MapValue o) {
    return str(o, "metadata", "name");
  }

  /** The value at {@code path} under {@code v}, or null when a step is absent or not a map. */
  public static Value at(Value v, String... path) {
    Value cur = v;
    for (String p : path) {
      if (!(cur instanceof MapValue m)) {
        return null;
      }
      cur = m.getOrNull(p);
    }
    return cur;
  }

  /** The string (or integer, as decimal) at {@code path}, or Go's zero value "". */
  public static String str(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof StringValue s) {
      return s.value();
    }
    if (x instanceof IntegerValue i) {
      return Long.toString(i.value());
    }
    return "";
  }

  /** The number at {@code path} (a float truncated), or 0. */
  public static long integer(Value v, String... path) {
    Value x = at(v, path);
    if (x instanceof IntegerValue i) {
      return i.value();
    }
    return x instanceof FloatValue f ? (long) f.value() : 0;
  }

  /** Whether a non-null value is at {@code path}. */
  public static boolean has(Value v, String... path) {
    Value x = at(v, path);
    return x != null && !x.isNull();
  }

  /** The boolean at {@code path}, or false. */
  public static boolean bool(Value v, String... path) {
    return at(v, path) instanceof BooleanValue b && b.value();
  }

  /** The items of the list at {@code path}, or none. */
  public static List<Value> list(Value v, String... path) {
    return at(v, path) instanceof ListValue l ? l.items() : List.of();
  }

  /** The map at {@code path}, or an empty one. */
  public static MapValue map(Value v, String... path) {
    return at(v, path) instanceof MapValue m ? m : MapValue.empty();
  }

  /** {@code s}, or {@code <none>} when empty, as kube prints absent values. */
  public static String orNone(String s) {
    return s.isEmpty() ? "<none>" : s;
  }

  /** A string map as {@code k=v,k2=v2} sorted by key ({@code labels.FormatLabels}). */
  public static String formatLabels(MapValue m) {
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
  public static String formatLabelSelector(Value selector) {
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
  public static String age(MapValue o, Instant now) {
    return since(str(o, "metadata", "creationTimestamp"), now);
  }

  /** The human duration from an RFC 3339 {@code timestamp} to {@code now}, kube's way. */
  public static String since(String timestamp, Instant now) {
    if (timestamp.isEmpty()) {
      return "<unknown>";
    }
    try {
      return GoDurations.human(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  /** Cells from Java values; see {@link TablePrinter#row}. */
  public static List<Value> row(Object... cells) {
    return TablePrinter.row(cells);
  }
}
