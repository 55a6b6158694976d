/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Copy-on-write accessors of an object's {@code apiVersion}, {@code kind} and
 * {@code metadata} fields. Absent or mistyped fields read as Go's zero values,
 * as kube-apiserver sees them after decoding into ObjectMeta.
 */
public final class Meta {
  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private Meta() {}

  /** RFC 3339 in UTC with whole seconds, as metav1.Time serializes. */
  public static String formatTime(Instant t) {
    return RFC3339.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  public static MapValue metadata(MapValue obj) {
    return obj.getOrNull("metadata") instanceof MapValue m ? m : MapValue.empty();
  }

  public static String string(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  public static String metaString(MapValue obj, String key) {
    return string(metadata(obj), key);
  }

  public static boolean hasMeta(MapValue obj, String key) {
    Value v = metadata(obj).getOrNull(key);
    return v != null && !v.isNull();
  }

  public static Value metaValue(MapValue obj, String key) {
    Value v = metadata(obj).getOrNull(key);
    return v == null ? Value.nullValue() : v;
  }

  public static long generation(MapValue obj) {
    return metadata(obj).getOrNull("generation") instanceof IntegerValue i ? i.value() : 0;
  }

  /** The object with metadata field {@code key} set; metadata is created when missing. */
  public static MapValue withMeta(MapValue obj, String key, Value value) {
    MapValue meta = metadata(obj);
    Value old = meta.getOrNull(key);
    if (value.equals(old)) {
      return obj;
    }
    return obj.with("metadata", meta.with(key, value));
  }

  /** The object with a string metadata field set, or removed when {@code value} is empty. */
  public static MapValue withMetaString(MapValue obj, String key, String value) {
    return value.isEmpty() ? withoutMeta(obj, key) : withMeta(obj, key, Value.of(value));
  }

  public static MapValue withoutMeta(MapValue obj, String key) {
    MapValue meta = metadata(obj);
    if (!meta.containsKey(key)) {
      return obj;
    }
    return obj.with("metadata", meta.without(key));
  }

  /** The object with metadata field {@code key} copied from {@code from} (or removed). */
  public static MapValue copyMeta(MapValue obj, MapValue from, String key) {
    Value v = metadata(from).getOrNull(key);
    return v == null ? withoutMeta(obj, key) : withMeta(obj, key, v);
  }

  /** The strings of a string list ({@code finalizers}); non-strings are skipped. */
  public static List<String> stringList(Value v) {
    List<String> out = new ArrayList<>();
    if (v instanceof ListValue l) {
      for (Value item : l.items()) {
        if (item instanceof StringValue s) {
          out.add(s.value());
        }
      }
    }
    return out;
  }

  public static List<String> finalizers(MapValue obj) {
    return stringList(metadata(obj).getOrNull("finalizers"));
  }

  public static MapValue withFinalizers(MapValue obj, List<String> finalizers) {
    if (finalizers.isEmpty()) {
      return withoutMeta(obj, "finalizers");
    }
    ListValue.Builder b = ListValue.builder(finalizers.size());
    finalizers.forEach(f -> b.add(Value.of(f)));
    return withMeta(obj, "finalizers", b.build());
  }

  /** {@code metadata.deletionGracePeriodSeconds} when set to an integer. */
  public static Long deletionGracePeriod(MapValue obj) {
    return metadata(obj).getOrNull("deletionGracePeriodSeconds") instanceof IntegerValue i
        ? i.value() : null;
  }

  /** {@code metadata.labels} as a map of strings (non-string values skipped). */
  public static java.util.Map<String, String> labels(MapValue obj) {
    return stringMap(metadata(obj).getOrNull("labels"));
  }

  /** {@code metadata.annotations} as a map of strings (non-string values skipped). */
  public static java.util.Map<String, String> annotations(MapValue obj) {
    return stringMap(metadata(obj).getOrNull("annotations"));
  }

  private static java.util.Map<String, String> stringMap(Value v) {
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    if (v instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        if (m.valueAt(i) instanceof StringValue s) {
          out.put(m.keyAt(i), s.value());
        }
      }
    }
    return out;
  }

  /** A top-level field, or null when absent. */
  public static Value field(MapValue obj, String key) {
    return obj.getOrNull(key);
  }

  /** Replaces or removes a top-level field. */
  public static MapValue withField(MapValue obj, String key, Value value) {
    return value == null ? obj.without(key) : obj.with(key, value);
  }
}
