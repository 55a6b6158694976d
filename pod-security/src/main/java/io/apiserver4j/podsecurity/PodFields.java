/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads pod fields the way Go's typed structs see them: an absent or null field is Go's nil
 * pointer (or zero value), values of the wrong JSON type count as absent.
 */
final class PodFields {
  private PodFields() {}

  /** The map at {@code key}, or null (Go's nil pointer). */
  static MapValue map(MapValue m, String key) {
    return m != null && m.getOrNull(key) instanceof MapValue v ? v : null;
  }

  /** The map at a path, or null when a step is missing. */
  static MapValue map(MapValue m, String... path) {
    MapValue cur = m;
    for (String p : path) {
      cur = map(cur, p);
      if (cur == null) {
        return null;
      }
    }
    return cur;
  }

  /** A {@code *bool}: null when absent. */
  static Boolean bool(MapValue m, String key) {
    return m != null && m.getOrNull(key) instanceof BooleanValue b ? b.value() : null;
  }

  /** A {@code *int64}: null when absent. */
  static Long integer(MapValue m, String key) {
    if (m == null) {
      return null;
    }
    Value v = m.getOrNull(key);
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    return v instanceof FloatValue f ? (long) f.value() : null;
  }

  /** A {@code *string}: null when absent. */
  static String stringOrNull(MapValue m, String key) {
    return m != null && m.getOrNull(key) instanceof StringValue s ? s.value() : null;
  }

  /** A {@code string}: empty when absent. */
  static String string(MapValue m, String key) {
    String s = stringOrNull(m, key);
    return s == null ? "" : s;
  }

  /** Whether a non-null value is at {@code key} (Go's non-nil pointer). */
  static boolean has(MapValue m, String key) {
    Value v = m == null ? null : m.getOrNull(key);
    return v != null && !v.isNull();
  }

  /** The map items of the list at {@code key}. */
  static List<MapValue> maps(MapValue m, String key) {
    if (m == null || !(m.getOrNull(key) instanceof io.apiserver4j.core.ListValue l)) {
      return List.of();
    }
    List<MapValue> out = new ArrayList<>(l.size());
    for (Value v : l.items()) {
      // a null item decodes to a zero struct in Go
      out.add(v instanceof MapValue mv ? mv : MapValue.empty());
    }
    return out;
  }

  /** The string items of the list at {@code key}. */
  static List<String> strings(MapValue m, String key) {
    if (m == null || !(m.getOrNull(key) instanceof io.apiserver4j.core.ListValue l)) {
      return List.of();
    }
    List<String> out = new ArrayList<>(l.size());
    for (Value v : l.items()) {
      out.add(v instanceof StringValue s ? s.value() : "");
    }
    return out;
  }

  /**
   * The containers in kube's visiting order: init containers, containers, ephemeral containers.
   */
  static List<MapValue> containers(MapValue podSpec) {
    List<MapValue> out = new ArrayList<>(maps(podSpec, "initContainers"));
    out.addAll(maps(podSpec, "containers"));
    out.addAll(maps(podSpec, "ephemeralContainers"));
    return out;
  }

  /** The string annotations of pod metadata. */
  static Map<String, String> annotations(MapValue podMetadata) {
    Map<String, String> out = new TreeMap<>();
    MapValue a = map(podMetadata, "annotations");
    if (a != null) {
      a.forEach((k, v) -> out.put(k, v instanceof StringValue s ? s.value() : ""));
    }
    return out;
  }

  /** kube's {@code joinQuote}: each item in double quotes, joined with {@code ", "}. */
  static String joinQuote(Collection<String> items) {
    if (items.isEmpty()) {
      return "";
    }
    return "\"" + String.join("\", \"", items) + "\"";
  }

  /** kube's {@code pluralize}. */
  static String pluralize(String singular, String plural, int count) {
    return count == 1 ? singular : plural;
  }

  /** {@code container "a"} or {@code containers "a", "b"}. */
  static String containersPhrase(Collection<String> names) {
    return pluralize("container", "containers", names.size()) + " " + joinQuote(names);
  }

  /** kube's {@code relaxPolicyForUserNamespacePod}: {@code hostUsers: false}. */
  static boolean userNamespacePod(MapValue podSpec) {
    return Boolean.FALSE.equals(bool(podSpec, "hostUsers"));
  }

  /** {@code spec.os.name == windows}. */
  static boolean windowsPod(MapValue podSpec) {
    MapValue os = map(podSpec, "os");
    return os != null && "windows".equals(string(os, "name"));
  }
}
