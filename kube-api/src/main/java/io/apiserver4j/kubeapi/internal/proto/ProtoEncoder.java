/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import static io.apiserver4j.kubeapi.internal.proto.ProtoCodec.MAX_DEPTH;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Field;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Message;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Special;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;

/**
 * The writing half of {@link ProtoCodec}: a JSON value to the bytes gogo's generated marshallers
 * write for the Go struct (see {@link ProtoCodec} for the rules). A value that does not fit its
 * field, or nesting deeper than {@link ProtoCodec#MAX_DEPTH}, is an
 * {@link IllegalArgumentException} naming where it sits. Stateless, so thread-safe.
 */
final class ProtoEncoder {
  /** The bytes of one message from its JSON value. */
  byte[] message(Message m, Value v, int depth, Where path) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("object nested deeper than " + MAX_DEPTH + " at "
          + path);
    }
    ProtoWire.Writer w = new ProtoWire.Writer();
    boolean isNull = v == null || v.kind() == Value.Kind.NULL;
    switch (m.special) {
      case NONE:
        if (!isNull && !(v instanceof MapValue)) {
          throw mismatch(path, "an object", v);
        }
        writeObject(m, isNull ? MapValue.empty() : (MapValue) v, w, depth, path);
        break;
      case TIME:
      case MICRO_TIME:
        if (!isNull) {
          Instant t = instant(v, path);
          w.varintField(1, t.getEpochSecond());
          if (m.special == Special.MICRO_TIME) {
            w.varintField(2, t.getNano() - t.getNano() % 1000);
          } else {
            w.varintField(2, 0);
          }
        }
        break;
      case DURATION:
        w.varintField(1, isNull ? 0 : GoDuration.parse(text(v, path), path.toString()));
        break;
      case RAW_JSON:
      case RAW_EXTENSION:
        if (!isNull) {
          w.bytesField(1, Json.writeBytes(v));
        }
        break;
      case QUANTITY:
        w.stringField(1, isNull ? "0" : quantity(v, path));
        break;
      case INT_OR_STRING:
        if (v instanceof StringValue s) {
          w.varintField(1, 1);
          w.varintField(2, 0);
          w.stringField(3, s.value());
        } else {
          w.varintField(1, 0);
          w.varintField(2, isNull ? 0 : integer(v, path));
          w.stringField(3, "");
        }
        break;
      case STRING_LIST:
        if (!isNull) {
          for (Value item : list(v, path).items()) {
            w.stringField(1, text(item, path));
          }
        }
        break;
      case PROPS_OR_ARRAY:
        if (v instanceof ListValue l) {
          Message props = m.type(m.field(2));
          for (Value item : l.items()) {
            w.bytesField(2, message(props, item, depth + 1, path.then("[]")));
          }
        } else if (!isNull) {
          w.bytesField(1, message(m.type(m.field(1)), v, depth + 1, path));
        }
        break;
      case PROPS_OR_BOOL:
        if (v instanceof BooleanValue b) {
          w.varintField(1, b.value() ? 1 : 0);
        } else if (!isNull) {
          w.varintField(1, 1);
          w.bytesField(2, message(m.type(m.field(2)), v, depth + 1, path));
        } else {
          w.varintField(1, 0);
        }
        break;
      case PROPS_OR_STRING_ARRAY:
        if (v instanceof ListValue l) {
          for (Value item : l.items()) {
            w.stringField(2, text(item, path));
          }
        } else if (!isNull) {
          w.bytesField(1, message(m.type(m.field(1)), v, depth + 1, path));
        }
        break;
      default:
        throw new IllegalStateException(m.special.toString());
    }
    return w.toByteArray();
  }

  private void writeObject(Message m, MapValue o, ProtoWire.Writer w, int depth, Where path) {
    // the object's values by field, in one pass over its entries (not a lookup per field)
    Value[] values = new Value[m.fields.length];
    for (int i = 0; i < o.size(); i++) {
      int[] indexes = m.byJson(o.keyAt(i));
      if (indexes != null) {
        for (int index : indexes) {
          values[index] = o.valueAt(i);
        }
      }
    }
    for (Field f : m.wireOrder) {
      if (f.inline()) {
        w.bytesField(f.number(), message(m.type(f), o, depth + 1, path));
        continue;
      }
      if (f.nojson()) {
        continue;
      }
      Value v = values[f.index()];
      boolean absent = v == null || v.kind() == Value.Kind.NULL;
      if (absent && (f.map() || f.repeated() || f.ptr())) {
        continue;
      }
      Where fp = path.field(f.json());
      if (f.map()) {
        if (!(v instanceof MapValue entries)) {
          throw mismatch(fp, "an object", v);
        }
        for (int e : sortedByKey(entries)) {
          String k = entries.keyAt(e);
          ProtoWire.Writer entry = new ProtoWire.Writer();
          entry.stringField(1, k);
          writeOne(m, f, entry, 2, entries.valueAt(e), depth, fp.key(k));
          w.bytesField(f.number(), entry.toByteArray());
        }
      } else if (f.repeated()) {
        Where items = fp.then("[]");
        for (Value item : list(v, fp).items()) {
          writeOne(m, f, w, f.number(), item, depth, items);
        }
      } else {
        writeOne(m, f, w, f.number(), absent ? null : v, depth, fp);
      }
    }
  }

  /** One value of a field (null: the zero value). */
  private void writeOne(Message m, Field f, ProtoWire.Writer w, int number, Value v,
      int depth, Where path) {
    if (!f.scalar()) {
      w.bytesField(number, message(m.type(f), v, depth + 1, path));
      return;
    }
    boolean zero = v == null || v.kind() == Value.Kind.NULL;
    switch (f.type()) {
      case "string" -> w.stringField(number, zero ? "" : text(v, path));
      case "bytes" -> w.bytesField(number, zero ? new byte[0] : base64(v, path));
      case "bool" -> w.varintField(number, !zero && bool(v, path) ? 1 : 0);
      case "int32", "int64", "uint32", "uint64" ->
          w.varintField(number, zero ? 0 : integer(v, path));
      case "sint32", "sint64" -> {
        long x = zero ? 0 : integer(v, path);
        w.varintField(number, (x << 1) ^ (x >> 63));
      }
      case "double" -> w.fixed64Field(number,
          Double.doubleToLongBits(zero ? 0 : number(v, path)));
      case "float" -> w.fixed32Field(number,
          Float.floatToIntBits((float) (zero ? 0 : number(v, path))));
      case "fixed64", "sfixed64" -> w.fixed64Field(number, zero ? 0 : integer(v, path));
      case "fixed32", "sfixed32" -> w.fixed32Field(number, (int) (zero ? 0 : integer(v, path)));
      default -> throw new IllegalStateException(f.type());
    }
  }

  /**
   * Where a value being written sits, for error messages: built as the walk goes down (a small
   * object a level), turned into text only when a value does not fit.
   */
  static final class Where {
    private static final int ROOT = 0;
    private static final int FIELD = 1;
    private static final int KEY = 2;
    private static final int SUFFIX = 3;
    private final Where parent;
    private final String text;
    private final int form;

    private Where(Where parent, String text, int form) {
      this.parent = parent;
      this.text = text;
      this.form = form;
    }

    static Where root(String kind) {
      return new Where(null, kind, ROOT);
    }

    Where field(String name) {
      return new Where(this, name, FIELD);
    }

    Where key(String key) {
      return new Where(this, key, KEY);
    }

    Where then(String suffix) {
      return new Where(this, suffix, SUFFIX);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      append(sb);
      return sb.toString();
    }

    private void append(StringBuilder sb) {
      if (parent != null) {
        parent.append(sb);
      }
      switch (form) {
        case FIELD -> sb.append('.').append(text);
        case KEY -> sb.append('[').append(text).append(']');
        default -> sb.append(text);
      }
    }
  }

  /** The positions of a map's entries in key order (gogo writes map entries sorted by key). */
  private static int[] sortedByKey(MapValue map) {
    int n = map.size();
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // insertion sort: maps are small, and often already sorted
    for (int i = 1; i < n; i++) {
      int e = order[i];
      String k = map.keyAt(e);
      int j = i - 1;
      while (j >= 0 && map.keyAt(order[j]).compareTo(k) > 0) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = e;
    }
    return order;
  }

  private static Instant instant(Value v, Where path) {
    String s = text(v, path);
    Instant utc = utcSeconds(s);
    if (utc != null) {
      return utc;
    }
    try {
      return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(path + ": " + Json.quote(s)
          + " is not an RFC 3339 time");
    }
  }

  /**
   * {@code yyyy-MM-ddTHH:mm:ssZ}, the form kube writes times in, read without a formatter; null
   * for any other form (left to the full RFC 3339 parser).
   */
  private static Instant utcSeconds(String s) {
    if (s.length() != 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
        || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(19) != 'Z') {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0
        || minute > 59 || second < 0 || second > 59
        || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
      return null;
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
  }

  /** The decimal number of {@code n} digits at {@code from}, or -1 for a non-digit. */
  private static int digits(String s, int from, int n) {
    int v = 0;
    for (int i = from; i < from + n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static String quantity(Value v, Where path) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    if (v instanceof IntegerValue || v instanceof FloatValue) {
      return Json.write(v);
    }
    throw mismatch(path, "a quantity", v);
  }

  private static String text(Value v, Where path) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw mismatch(path, "a string", v);
  }

  private static boolean bool(Value v, Where path) {
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    throw mismatch(path, "a boolean", v);
  }

  private static long integer(Value v, Where path) {
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    if (v instanceof FloatValue d && d.value() == Math.rint(d.value())) {
      return (long) d.value();
    }
    throw mismatch(path, "an integer", v);
  }

  private static double number(Value v, Where path) {
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    if (v instanceof FloatValue d) {
      return d.value();
    }
    throw mismatch(path, "a number", v);
  }

  private static byte[] base64(Value v, Where path) {
    try {
      return Base64.getDecoder().decode(text(v, path));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": illegal base64 data: " + e.getMessage());
    }
  }

  private static ListValue list(Value v, Where path) {
    if (v instanceof ListValue l) {
      return l;
    }
    throw mismatch(path, "a list", v);
  }

  private static IllegalArgumentException mismatch(Where path, String expected, Value v) {
    return new IllegalArgumentException(path + ": expected " + expected + ", not "
        + v.kind().toString().toLowerCase(Locale.ROOT));
  }
}
