/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** What the built-in admission plugins share: which request they look at, and list helpers. */
public final class Admissions {
  private Admissions() {}

  /**
   * Whether the request is for the main resource (no subresource) {@code group}/{@code resource}
   * and, unless {@code operations} is empty, one of {@code operations}.
   */
  public static boolean isMain(AdmissionAttributes a, String group, String resource,
      Operation... operations) {
    if (!a.subresource().isEmpty() || !a.resource().group().equals(group)
        || !a.resource().resource().equals(resource)) {
      return false;
    }
    if (operations.length == 0) {
      return true;
    }
    for (Operation op : operations) {
      if (a.operation() == op) {
        return true;
      }
    }
    return false;
  }

  /** The maps of the list at {@code key} of {@code m}; empty when absent. */
  public static List<MapValue> maps(MapValue m, String key) {
    List<MapValue> out = new ArrayList<>();
    if (m != null && m.getOrNull(key) instanceof ListValue l) {
      for (Value v : l.items()) {
        if (v instanceof MapValue item) {
          out.add(item);
        }
      }
    }
    return out;
  }

  /** The string at {@code key} of {@code m}, or empty when absent or not a string. */
  public static String str(MapValue m, String key) {
    return m != null && m.getOrNull(key) instanceof io.apiserver4j.core.StringValue s
        ? s.value() : "";
  }

  /**
   * The default class among {@code classes} (those whose {@code annotations} name one true), as
   * kube's {@code GetDefaultClass} picks it: the newest, then the first by name.
   */
  public static Optional<MapValue> newestDefault(List<MapValue> classes, String... annotations) {
    List<MapValue> defaults = new ArrayList<>();
    for (MapValue c : classes) {
      for (String a : annotations) {
        if ("true".equals(Meta.annotations(c).get(a))) {
          defaults.add(c);
          break;
        }
      }
    }
    defaults.sort(Comparator.<MapValue, Instant>comparing(Admissions::created).reversed()
        .thenComparing(c -> Meta.metaString(c, "name")));
    return defaults.stream().findFirst();
  }

  private static Instant created(MapValue c) {
    String t = Meta.metaString(c, "creationTimestamp");
    try {
      return t.isEmpty() ? Instant.EPOCH : Instant.parse(t);
    } catch (java.time.format.DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }
}
