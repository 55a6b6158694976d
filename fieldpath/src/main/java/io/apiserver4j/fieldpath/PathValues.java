/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.Arrays;

/**
 * Comparison, hashing and formatting of the values inside {@link Key} and {@link SetMember}
 * elements, with structured-merge-diff's semantics rather than core's exact ones: an integer and a
 * float that are numerically equal are the same element (SMD compares mixed numbers as floats,
 * and FieldsV1 decoding in Go yields floats for every number).
 */
final class PathValues {
  private PathValues() {}

  static int compare(Value a, Value b) {
    if (a == b) {
      return 0;
    }
    if (a instanceof StringValue sa && b instanceof StringValue sb) {
      return Values.compareStrings(sa.value(), sb.value());
    }
    int ra = rank(a);
    int rb = rank(b);
    if (ra == 0 && rb == 0) {
      if (a instanceof IntegerValue ia && b instanceof IntegerValue ib) {
        return Long.compare(ia.value(), ib.value());
      }
      return compareFloats(asDouble(a), asDouble(b));
    }
    if (ra != rb) {
      return ra < rb ? -1 : 1;
    }
    if (a instanceof BooleanValue ba) {
      return Boolean.compare(ba.value(), ((BooleanValue) b).value());
    }
    if (a instanceof ListValue la) {
      ListValue lb = (ListValue) b;
      int n = Math.min(la.size(), lb.size());
      for (int i = 0; i < n; i++) {
        int c = compare(la.get(i), lb.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(la.size(), lb.size());
    }
    if (a instanceof MapValue ma) {
      return compareMaps(ma, (MapValue) b);
    }
    return 0; // both null
  }

  // Go's float comparison with < and >: -0 equals 0.
  private static int compareFloats(double x, double y) {
    return x < y ? -1 : (x > y ? 1 : 0);
  }

  private static int compareMaps(MapValue a, MapValue b) {
    String[] ka = sortedKeys(a);
    String[] kb = sortedKeys(b);
    int n = Math.min(ka.length, kb.length);
    for (int i = 0; i < n; i++) {
      int c = Values.compareStrings(ka[i], kb[i]);
      if (c != 0) {
        // The map lacking the smaller key sorts after the other, as SMD's zipped walk decides.
        return c;
      }
      c = compare(a.getOrNull(ka[i]), b.getOrNull(kb[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(ka.length, kb.length);
  }

  static String[] sortedKeys(MapValue m) {
    String[] keys = new String[m.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = m.keyAt(i);
    }
    if (keys.length > 1) {
      Arrays.sort(keys, Values::compareStrings);
    }
    return keys;
  }

  // numbers, strings, booleans, lists, maps, null — SMD's order of kinds
  private static int rank(Value v) {
    if (v instanceof IntegerValue || v instanceof FloatValue) {
      return 0;
    }
    if (v instanceof StringValue) {
      return 1;
    }
    if (v instanceof BooleanValue) {
      return 2;
    }
    if (v instanceof ListValue) {
      return 3;
    }
    if (v instanceof MapValue) {
      return 4;
    }
    return 5;
  }

  private static double asDouble(Value v) {
    return v instanceof IntegerValue i ? (double) i.value() : ((FloatValue) v).value();
  }

  static boolean equal(Value a, Value b) {
    return compare(a, b) == 0;
  }

  /** A hash consistent with {@link #compare} returning 0. */
  static int hash(Value v) {
    if (v instanceof StringValue s) {
      return s.value().hashCode();
    }
    if (v instanceof IntegerValue || v instanceof FloatValue) {
      double d = asDouble(v);
      return d == 0 ? 0 : Double.hashCode(d);
    }
    if (v instanceof BooleanValue b) {
      return b.value() ? 1231 : 1237;
    }
    if (v instanceof ListValue l) {
      int h = 1;
      for (int i = 0; i < l.size(); i++) {
        h = 31 * h + hash(l.get(i));
      }
      return h;
    }
    if (v instanceof MapValue m) {
      int h = 0;
      for (int i = 0; i < m.size(); i++) {
        h += m.keyAt(i).hashCode() ^ hash(m.valueAt(i));
      }
      return h ^ 0x5bd1e995;
    }
    return 0x1f2e3d4c;
  }

  /**
   * Appends {@code v} as compact JSON the way SMD's serializer writes element values: Go's
   * escaping, map keys sorted, floats in Go's shortest form.
   */
  static void appendJson(StringBuilder sb, Value v) {
    if (v instanceof StringValue s) {
      GoJson.appendQuoted(sb, s.value());
    } else if (v instanceof IntegerValue i) {
      sb.append(i.value());
    } else if (v instanceof FloatValue f) {
      sb.append(Json.formatFloat(f.value()));
    } else if (v instanceof BooleanValue b) {
      sb.append(b.value());
    } else if (v instanceof ListValue l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        appendJson(sb, l.get(i));
      }
      sb.append(']');
    } else if (v instanceof MapValue m) {
      sb.append('{');
      String[] keys = sortedKeys(m);
      for (int i = 0; i < keys.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        GoJson.appendQuoted(sb, keys[i]);
        sb.append(':');
        appendJson(sb, m.getOrNull(keys[i]));
      }
      sb.append('}');
    } else {
      sb.append("null");
    }
  }

  /**
   * Appends {@code v} as SMD's {@code value.ToString} renders it in path strings: strings
   * Go-quoted ({@code %q}), numbers and booleans bare, lists bracketed, maps as {@code k=v} pairs.
   */
  static void appendHuman(StringBuilder sb, Value v) {
    if (v instanceof StringValue s) {
      GoStrings.appendQuoted(sb, s.value());
    } else if (v instanceof IntegerValue i) {
      sb.append(i.value());
    } else if (v instanceof FloatValue f) {
      sb.append(GoStrings.formatFloatV(f.value()));
    } else if (v instanceof BooleanValue b) {
      sb.append(b.value());
    } else if (v instanceof ListValue l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        appendHuman(sb, l.get(i));
      }
      sb.append(']');
    } else if (v instanceof MapValue m) {
      // Go iterates the map in random order; sorted keys keep the output stable.
      for (String k : sortedKeys(m)) {
        sb.append(k).append('=');
        appendHuman(sb, m.getOrNull(k));
      }
    } else {
      sb.append("null");
    }
  }
}
