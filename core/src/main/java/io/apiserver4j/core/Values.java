/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** Ordering helpers shared by the value tree and the field-path layer. */
public final class Values {
  private Values() {}

  /**
   * Total order over values, mirroring structured-merge-diff's {@code value.Compare}: floats and
   * integers first (compared numerically with each other), then strings, booleans, lists
   * (lexicographic), maps (by sorted keys, then values) and null last.
   *
   * @param a the first value
   * @param b the second value
   * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
   */
  public static int compare(Value a, Value b) {
    if (a == b) {
      return 0;
    }
    Value.Kind ka = a.kind();
    Value.Kind kb = b.kind();
    boolean na = ka == Value.Kind.FLOAT || ka == Value.Kind.INTEGER;
    boolean nb = kb == Value.Kind.FLOAT || kb == Value.Kind.INTEGER;
    if (na && nb) {
      if (ka == Value.Kind.INTEGER && kb == Value.Kind.INTEGER) {
        return Long.compare(((IntegerValue) a).value(), ((IntegerValue) b).value());
      }
      int c = Double.compare(asDouble(a), asDouble(b));
      // Numerically equal int and float: order by kind so compare agrees with equals.
      return c != 0 ? c : ka.compareTo(kb);
    }
    if (ka != kb) {
      return ka.compareTo(kb);
    }
    return switch (ka) {
      case STRING -> compareStrings(((StringValue) a).value(), ((StringValue) b).value());
      case BOOLEAN -> Boolean.compare(((BooleanValue) a).value(), ((BooleanValue) b).value());
      case LIST -> compareLists((ListValue) a, (ListValue) b);
      case MAP -> compareMaps((MapValue) a, (MapValue) b);
      default -> 0;
    };
  }

  private static double asDouble(Value v) {
    return v instanceof IntegerValue i ? (double) i.value() : ((FloatValue) v).value();
  }

  private static int compareLists(ListValue a, ListValue b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareMaps(MapValue a, MapValue b) {
    String[] ka = sortedKeys(a);
    String[] kb = sortedKeys(b);
    int n = Math.min(ka.length, kb.length);
    for (int i = 0; i < n; i++) {
      int c = compareStrings(ka[i], kb[i]);
      if (c != 0) {
        return c;
      }
      c = compare(a.getOrNull(ka[i]), b.getOrNull(kb[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(ka.length, kb.length);
  }

  private static String[] sortedKeys(MapValue m) {
    String[] keys = new String[m.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = m.keyAt(i);
    }
    java.util.Arrays.sort(keys, Values::compareStrings);
    return keys;
  }

  /**
   * Compares strings by Unicode code point, which is the byte order of their UTF-8 encodings and
   * therefore the order Go uses. {@link String#compareTo} differs for characters outside the BMP.
   *
   * @param a the first string
   * @param b the second string
   * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
   */
  public static int compareStrings(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        if (Character.isSurrogate(ca) || Character.isSurrogate(cb)) {
          return Integer.compare(a.codePointAt(i), b.codePointAt(i));
        }
        return ca - cb;
      }
    }
    return a.length() - b.length();
  }
}
