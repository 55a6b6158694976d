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

  /**
   * RFC 3339 in UTC with whole seconds, as metav1.Time serializes.
   *
   * @param t the instant; fractions of a second are dropped
   * @return e.g. {@code 2024-01-02T03:04:05Z}
   */
  public static String formatTime(Instant t) {
    return RFC3339.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * The object's {@code metadata}.
   *
   * @param obj the object; not changed
   * @return the metadata map; empty when absent or not a map
   */
  public static MapValue metadata(MapValue obj) {
    return obj.getOrNull("metadata") instanceof MapValue m ? m : MapValue.empty();
  }

  /**
   * A string field of a map.
   *
   * @param m the map
   * @param key the key
   * @return the string; empty when absent or not a string
   */
  public static String string(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  /**
   * A string field of {@code metadata}.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @return the string; empty when absent or not a string
   */
  public static String metaString(MapValue obj, String key) {
    return string(metadata(obj), key);
  }

  /**
   * Whether {@code metadata} has a non-null {@code key}.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @return true when set
   */
  public static boolean hasMeta(MapValue obj, String key) {
    Value v = metadata(obj).getOrNull(key);
    return v != null && !v.isNull();
  }

  /**
   * A field of {@code metadata}.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @return the value; the null value when absent
   */
  public static Value metaValue(MapValue obj, String key) {
    Value v = metadata(obj).getOrNull(key);
    return v == null ? Value.nullValue() : v;
  }

  /**
   * {@code metadata.generation}.
   *
   * @param obj the object; not changed
   * @return the generation; 0 when absent or not an integer
   */
  public static long generation(MapValue obj) {
    return metadata(obj).getOrNull("generation") instanceof IntegerValue i ? i.value() : 0;
  }

  /**
   * The object with metadata field {@code key} set; metadata is created when missing.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @param value the value
   * @return the new object
   */
  public static MapValue withMeta(MapValue obj, String key, Value value) {
    MapValue meta = metadata(obj);
    Value old = meta.getOrNull(key);
    if (value.equals(old)) {
      return obj;
    }
    return obj.with("metadata", meta.with(key, value));
  }

  /**
   * The object with a string metadata field set, or removed when {@code value} is empty.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @param value the string
   * @return the new object
   */
  public static MapValue withMetaString(MapValue obj, String key, String value) {
    return value.isEmpty() ? withoutMeta(obj, key) : withMeta(obj, key, Value.of(value));
  }

  /**
   * The object without metadata field {@code key}.
   *
   * @param obj the object; not changed
   * @param key the metadata field
   * @return the new object; {@code obj} itself when the field is absent
   */
  public static MapValue withoutMeta(MapValue obj, String key) {
    MapValue meta = metadata(obj);
    if (!meta.containsKey(key)) {
      return obj;
    }
    return obj.with("metadata", meta.without(key));
  }

  /**
   * The object with metadata field {@code key} copied from {@code from} (or removed).
   *
   * @param obj the object; not changed
   * @param from the object to copy from
   * @param key the metadata field
   * @return the new object
   */
  public static MapValue copyMeta(MapValue obj, MapValue from, String key) {
    Value v = metadata(from).getOrNull(key);
    return v == null ? withoutMeta(obj, key) : withMeta(obj, key, v);
  }

  /**
   * The strings of a string list ({@code finalizers}); non-strings are skipped.
   *
   * @param v the value, possibly null
   * @return the strings; empty when {@code v} is not a list
   */
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

  /**
   * {@code metadata.finalizers}.
   *
   * @param obj the object; not changed
   * @return the finalizers, in order; empty when none
   */
  public static List<String> finalizers(MapValue obj) {
    return stringList(metadata(obj).getOrNull("finalizers"));
  }

  /**
   * The object with {@code metadata.finalizers} set, or removed when the list is empty.
   *
   * @param obj the object; not changed
   * @param finalizers the finalizers
   * @return the new object
   */
  public static MapValue withFinalizers(MapValue obj, List<String> finalizers) {
    if (finalizers.isEmpty()) {
      return withoutMeta(obj, "finalizers");
    }
    ListValue.Builder b = ListValue.builder(finalizers.size());
    finalizers.forEach(f -> b.add(Value.of(f)));
    return withMeta(obj, "finalizers", b.build());
  }

  /**
   * {@code metadata.deletionGracePeriodSeconds} when set to an integer.
   *
   * @param obj the object; not changed
   * @return the seconds, or null when not set
   */
  public static Long deletionGracePeriod(MapValue obj) {
    return metadata(obj).getOrNull("deletionGracePeriodSeconds") instanceof IntegerValue i
        ? i.value() : null;
  }

  /**
   * {@code metadata.labels} as a map of strings (non-string values skipped).
   *
   * @param obj the object; not changed
   * @return the labels; empty when none
   */
  public static java.util.Map<String, String> labels(MapValue obj) {
    return stringMap(metadata(obj).getOrNull("labels"));
  }

  /**
   * {@code metadata.annotations} as a map of strings (non-string values skipped).
   *
   * @param obj the object; not changed
   * @return the annotations; empty when none
   */
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

  /**
   * A top-level field.
   *
   * @param obj the object; not changed
   * @param key the field
   * @return the value, or null when absent
   */
  public static Value field(MapValue obj, String key) {
    return obj.getOrNull(key);
  }

  /**
   * Replaces or removes a top-level field.
   *
   * @param obj the object; not changed
   * @param key the field
   * @param value the value, or null to remove the field
   * @return the new object
   */
  public static MapValue withField(MapValue obj, String key, Value value) {
    return value == null ? obj.without(key) : obj.with(key, value);
  }
}
