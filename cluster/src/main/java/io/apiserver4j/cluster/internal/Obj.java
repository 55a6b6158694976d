/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the values the simulation writes from plain Java ones, keeping the order the arguments
 * give (the order kube's Go structs serialize in, so the objects read as kube's do).
 */
public final class Obj {
  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private Obj() {}

  /** A map of alternating keys and values; a null value leaves its key out. */
  public static MapValue map(Object... keysAndValues) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Object v = keysAndValues[i + 1];
      if (v != null) {
        m.put((String) keysAndValues[i], value(v));
      }
    }
    return MapValue.of(m);
  }

  /** A list of the values. */
  public static ListValue list(Object... items) {
    List<Value> out = new ArrayList<>();
    for (Object o : items) {
      out.add(value(o));
    }
    return ListValue.of(out);
  }

  /** The value of {@code o}: a string, number, boolean, value, list or string map. */
  public static Value value(Object o) {
    if (o instanceof Value v) {
      return v;
    } else if (o instanceof String s) {
      return Value.of(s);
    } else if (o instanceof Integer i) {
      return Value.of((long) i);
    } else if (o instanceof Long l) {
      return Value.of(l);
    } else if (o instanceof Boolean b) {
      return Value.of(b);
    } else if (o instanceof List<?> l) {
      return list(l.toArray());
    } else if (o instanceof Map<?, ?> m) {
      Map<String, Value> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put((String) k, value(v)));
      return MapValue.of(out);
    }
    throw new IllegalArgumentException("no value for " + o.getClass());
  }

  /** {@code metav1.MicroTime}: RFC 3339 with six fraction digits, UTC. */
  public static String microTime(Instant t) {
    return MICRO.format(t.truncatedTo(ChronoUnit.MICROS));
  }
}
