/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.Values;
import java.util.List;

/** Ordering, path-string and FieldsV1 syntax of path elements. */
final class Elements {
  private Elements() {}

  static int compare(PathElement a, PathElement b) {
    if (a == b) {
      return 0;
    }
    if (a instanceof FieldName fa) {
      if (b instanceof FieldName fb) {
        String x = fa.name();
        String y = fb.name();
        // equals is vectorised and the common outcome when walking two similar sets
        return x.equals(y) ? 0 : Values.compareStrings(x, y);
      }
      return -1;
    }
    if (b instanceof FieldName) {
      return 1;
    }
    if (a instanceof Key ka) {
      return b instanceof Key kb ? compareKeys(ka.fields(), kb.fields()) : -1;
    }
    if (b instanceof Key) {
      return 1;
    }
    if (a instanceof SetMember ma) {
      return b instanceof SetMember mb ? PathValues.compare(ma.value(), mb.value()) : -1;
    }
    if (b instanceof SetMember) {
      return 1;
    }
    return Long.compare(((Index) a).index(), ((Index) b).index());
  }

  private static int compareKeys(List<KeyField> a, List<KeyField> b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      KeyField x = a.get(i);
      KeyField y = b.get(i);
      int c = x.name().equals(y.name()) ? 0 : Values.compareStrings(x.name(), y.name());
      if (c != 0) {
        return c;
      }
      c = PathValues.compare(x.value(), y.value());
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  static void appendPathString(StringBuilder sb, PathElement e) {
    if (e instanceof FieldName f) {
      sb.append('.').append(f.name());
    } else if (e instanceof Key k) {
      sb.append('[');
      List<KeyField> fields = k.fields();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(fields.get(i).name()).append('=');
        PathValues.appendHuman(sb, fields.get(i).value());
      }
      sb.append(']');
    } else if (e instanceof SetMember m) {
      sb.append("[=");
      PathValues.appendHuman(sb, m.value());
      sb.append(']');
    } else {
      sb.append('[').append(((Index) e).index()).append(']');
    }
  }

  /** Appends the FieldsV1 spelling of {@code e} (not JSON-escaped for use as an object key). */
  static void appendSerialized(StringBuilder sb, PathElement e) {
    if (e instanceof FieldName f) {
      sb.append("f:").append(f.name());
    } else if (e instanceof Key k) {
      sb.append("k:{");
      List<KeyField> fields = k.fields();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        GoJson.appendQuoted(sb, fields.get(i).name());
        sb.append(':');
        PathValues.appendJson(sb, fields.get(i).value());
      }
      sb.append('}');
    } else if (e instanceof SetMember m) {
      sb.append("v:");
      PathValues.appendJson(sb, m.value());
    } else {
      sb.append("i:").append(((Index) e).index());
    }
  }

  /** Thrown internally for a well-formed key with a type character this version does not know. */
  static final class UnknownElementType extends RuntimeException {
    static final UnknownElementType INSTANCE = new UnknownElementType();

    private UnknownElementType() {
      super("unknown path element type", null, false, false);
    }
  }

  /**
   * Parses the FieldsV1 spelling of an element, as SMD's {@code DeserializePathElement} does.
   *
   * @throws UnknownElementType for an {@code x:...} key with an unknown type character
   * @throws FieldsV1Exception for anything else malformed
   */
  static PathElement parse(String s) {
    int n = s.length();
    // Go measures the key in UTF-8 bytes; one non-ASCII character already has two.
    if (n == 0 || (n == 1 && s.charAt(0) < 0x80)) {
      throw new FieldsV1Exception("key must be 2 characters long:");
    }
    if (n < 2 || s.charAt(1) != ':' || s.charAt(0) >= 0x80) {
      throw new FieldsV1Exception("missing colon: " + s);
    }
    switch (s.charAt(0)) {
      case 'f':
        return new FieldName(s.substring(2));
      case 'v':
        return new SetMember(ElementJson.parseValue(s, 2));
      case 'k':
        return new Key(ElementJson.parseKeyFields(s, 2));
      case 'i':
        return new Index(parseGoInt(s, 2));
      default:
        throw UnknownElementType.INSTANCE;
    }
  }

  // strconv.Atoi: optional sign, decimal digits only, 64-bit range.
  private static long parseGoInt(String s, int from) {
    int n = s.length();
    int i = from;
    boolean negative = false;
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      negative = s.charAt(i) == '-';
      i++;
    }
    if (i == n) {
      throw badIndex(s, from, "not a base-10 integer");
    }
    long value = 0;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw badIndex(s, from, "not a base-10 integer");
      }
      int d = c - '0';
      // accumulate negatively so that Long.MIN_VALUE fits
      if (value < (Long.MIN_VALUE + d) / 10) {
        throw badIndex(s, from, "value out of range");
      }
      value = value * 10 - d;
    }
    if (!negative) {
      if (value == Long.MIN_VALUE) {
        throw badIndex(s, from, "value out of range");
      }
      value = -value;
    }
    return value;
  }

  private static FieldsV1Exception badIndex(String s, int from, String why) {
    return new FieldsV1Exception("invalid index " + GoJson.quoteForMessage(s.substring(from))
        + ": " + why);
  }
}
