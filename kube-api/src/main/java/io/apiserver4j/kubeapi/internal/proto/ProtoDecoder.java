/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import static io.apiserver4j.kubeapi.internal.proto.ProtoCodec.MAGIC;
import static io.apiserver4j.kubeapi.internal.proto.ProtoCodec.MAX_DEPTH;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.internal.proto.ProtoCodec.Envelope;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Field;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Message;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Special;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reading half of {@link ProtoCodec}: protobuf wire bytes to the JSON value Go's
 * {@code encoding/json} would write for the decoded struct (see {@link ProtoCodec} for the
 * rules and the known differences). Unknown field numbers are skipped; nesting deeper than
 * {@link ProtoCodec#MAX_DEPTH} and malformed bytes are {@link DecodeException}s. Stateless
 * beyond its schema, so thread-safe.
 */
final class ProtoDecoder {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /** The JSON value of a zero {@code metav1.Time}: null, or nothing with omitzero. */
  private static final Value ZERO_TIME = new StringValue("\0zero-time");

  private static final byte[] NO_BYTES = new byte[0];

  private final ProtoSchema schema;

  ProtoDecoder(ProtoSchema schema) {
    this.schema = schema;
  }

  /**
   * The JSON object of an envelope at nesting {@code depth}: {@code kind} and
   * {@code apiVersion} first, then the object's fields.
   */
  MapValue object(Envelope e, int depth) {
    Message m = schema.kind(e.apiVersion(), e.kind()).orElseThrow(() ->
        new IllegalArgumentException("no protobuf message for " + e.apiVersion() + ", Kind="
            + e.kind()));
    if (!e.contentEncoding().isEmpty()) {
      throw new DecodeException("unsupported protobuf content encoding " + e.contentEncoding());
    }
    MapValue fields = object(m, new ProtoWire.Reader(e.raw()), depth);
    MapValue.Builder out = MapValue.builder(fields.size() + 2)
        .put("kind", Value.of(e.kind()))
        .put("apiVersion", Value.of(e.apiVersion()));
    for (int i = 0; i < fields.size(); i++) {
      out.put(fields.keyAt(i), fields.valueAt(i));
    }
    return out.build();
  }

  /** The JSON value of one message's bytes. */
  Value value(Message m, ProtoWire.Reader r, int depth) {
    if (depth > MAX_DEPTH) {
      throw new DecodeException("protobuf message nested deeper than " + MAX_DEPTH);
    }
    switch (m.special) {
      case NONE:
        return object(m, r, depth);
      case TIME:
      case MICRO_TIME: {
        if (r.isEmpty()) {
          return ZERO_TIME;
        }
        long seconds = 0;
        long nanos = 0;
        while (r.more()) {
          int t = r.tag();
          if (t == (1 << 3)) {
            seconds = r.varint();
          } else if (t == (2 << 3)) {
            nanos = (int) r.varint();
          } else {
            r.skip(t & 7);
          }
        }
        if (m.special == Special.TIME) {
          return Value.of(SECONDS.format(Instant.ofEpochSecond(seconds)));
        }
        return Value.of(MICROS.format(Instant.ofEpochSecond(seconds, nanos - nanos % 1000)));
      }
      case DURATION: {
        long nanos = 0;
        while (r.more()) {
          int t = r.tag();
          if (t == (1 << 3)) {
            nanos = r.varint();
          } else {
            r.skip(t & 7);
          }
        }
        return Value.of(GoDuration.format(nanos));
      }
      case RAW_JSON:
      case RAW_EXTENSION: {
        byte[] raw = null;
        while (r.more()) {
          int t = r.tag();
          if (t == (1 << 3 | 2)) {
            raw = r.bytes();
          } else {
            r.skip(t & 7);
          }
        }
        if (raw == null || raw.length == 0) {
          return Value.nullValue();
        }
        if (m.special == Special.RAW_EXTENSION && raw.length >= MAGIC.length
            && Arrays.equals(raw, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
          Envelope embedded = ProtoCodec.envelope(raw);
          if (schema.kind(embedded.apiVersion(), embedded.kind()).isEmpty()) {
            throw new DecodeException("embedded protobuf object of unknown type "
                + embedded.apiVersion() + ", Kind=" + embedded.kind());
          }
          return object(embedded, depth + 1);
        }
        return Json.read(raw, DecodeLimits.DEFAULT);
      }
      case QUANTITY: {
        String s = "";
        while (r.more()) {
          int t = r.tag();
          if (t == (1 << 3 | 2)) {
            s = r.string();
          } else {
            r.skip(t & 7);
          }
        }
        // a zero Quantity prints as "0"
        return Value.of(s.isEmpty() ? "0" : s);
      }
      case INT_OR_STRING: {
        long type = 0;
        long intVal = 0;
        String strVal = "";
        while (r.more()) {
          int t = r.tag();
          switch (t) {
            case 1 << 3 -> type = r.varint();
            case 2 << 3 -> intVal = (int) r.varint();
            case 3 << 3 | 2 -> strVal = r.string();
            default -> r.skip(t & 7);
          }
        }
        return type == 1 ? Value.of(strVal) : Value.of(intVal);
      }
      case STRING_LIST: {
        MapValue o = object(m, r, depth);
        return o.getOrNull("items") instanceof ListValue l ? l : ListValue.empty();
      }
      case PROPS_OR_ARRAY: {
        MapValue o = object(m, r, depth);
        if (o.getOrNull("schema") instanceof MapValue s) {
          return s;
        }
        return o.getOrNull("jSONSchemas") instanceof ListValue l ? l : Value.nullValue();
      }
      case PROPS_OR_BOOL: {
        MapValue o = object(m, r, depth);
        if (o.getOrNull("schema") instanceof MapValue s) {
          return s;
        }
        return Value.of(o.getOrNull("allows") instanceof BooleanValue b && b.value());
      }
      case PROPS_OR_STRING_ARRAY: {
        MapValue o = object(m, r, depth);
        if (o.getOrNull("property") instanceof ListValue l) {
          return l;
        }
        return o.getOrNull("schema") instanceof MapValue s ? s : Value.nullValue();
      }
      default:
        throw new IllegalStateException(m.special.toString());
    }
  }

  private MapValue object(Message m, ProtoWire.Reader r, int depth) {
    int n = m.fields.length;
    Value[] singles = new Value[n];
    // per field index: a List<Value> (repeated) or a Map<String, Value> (map), made on use
    Object[] collections = null;
    while (r.more()) {
      int tag = r.tag();
      int wire = tag & 7;
      Field f = m.field(tag >>> 3);
      if (f == null) {
        r.skip(wire);
        continue;
      }
      int i = f.index();
      if (f.map()) {
        if (collections == null) {
          collections = new Object[n];
        }
        if (collections[i] == null) {
          collections[i] = new LinkedHashMap<String, Value>();
        }
        mapEntry(m, f, expectLen(r, wire, m, f), mapAt(collections, i), depth);
      } else if (f.repeated()) {
        if (collections == null) {
          collections = new Object[n];
        }
        if (collections[i] == null) {
          collections[i] = new ArrayList<Value>();
        }
        List<Value> l = listAt(collections, i);
        if (wire == ProtoWire.LEN && f.scalar() && !f.type().equals("string")
            && !f.type().equals("bytes")) {
          ProtoWire.Reader packed = r.sub();
          while (packed.more()) {
            l.add(scalar(f, packed, wireTypeOf(f.type()), m));
          }
        } else {
          l.add(fieldValue(m, f, r, wire, depth));
        }
      } else {
        singles[i] = fieldValue(m, f, r, wire, depth);
      }
    }
    MapValue.Builder out = MapValue.builder(n);
    for (Field f : m.fields) {
      if (f.nojson()) {
        continue;
      }
      int i = f.index();
      if (f.map()) {
        Map<String, Value> entries = collections == null ? null : mapAt(collections, i);
        if (entries != null && !entries.isEmpty()) {
          out.put(f.json(), MapValue.of(entries));
        }
        continue;
      }
      if (f.repeated()) {
        List<Value> l = collections == null ? null : listAt(collections, i);
        if (l != null && !l.isEmpty()) {
          out.put(f.json(), ListValue.of(l));
        }
        continue;
      }
      Value v = singles[i];
      if (f.scalar()) {
        if (v == null) {
          if (f.noomit() && !f.ptr()) {
            out.put(f.json(), zero(f.type()));
          }
        } else if (f.ptr() || f.noomit() || !isZero(v)) {
          out.put(f.json(), v);
        }
        continue;
      }
      if (v == null) {
        if (f.ptr()) {
          continue;
        }
        // Go has the zero struct where the wire has nothing
        v = value(m.type(f), empty(), depth + 1);
      }
      if (f.inline()) {
        if (v instanceof MapValue inner) {
          for (int k = 0; k < inner.size(); k++) {
            out.put(inner.keyAt(k), inner.valueAt(k));
          }
        }
      } else if (v == ZERO_TIME) {
        if (!f.omitzero() || f.ptr()) {
          out.put(f.json(), Value.nullValue());
        }
      } else {
        out.put(f.json(), v);
      }
    }
    return out.build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Value> mapAt(Object[] collections, int i) {
    return (Map<String, Value>) collections[i];
  }

  @SuppressWarnings("unchecked")
  private static List<Value> listAt(Object[] collections, int i) {
    return (List<Value>) collections[i];
  }

  /** A reader of an empty message: the zero value of its type. */
  private static ProtoWire.Reader empty() {
    return new ProtoWire.Reader(NO_BYTES);
  }

  private void mapEntry(Message m, Field f, ProtoWire.Reader entry, Map<String, Value> into,
      int depth) {
    String key = "";
    Value value = null;
    while (entry.more()) {
      int t = entry.tag();
      if (t >>> 3 == 1 && (t & 7) == ProtoWire.LEN) {
        key = entry.string();
      } else if (t >>> 3 == 2) {
        value = f.scalar() ? scalar(f, entry, t & 7, null)
            : value(m.type(f), expectLen(entry, t & 7, m, f), depth + 1);
      } else {
        entry.skip(t & 7);
      }
    }
    if (value == null) {
      value = f.scalar() ? zero(f.type()) : value(m.type(f), empty(), depth + 1);
    }
    into.put(key, value == ZERO_TIME ? Value.nullValue() : value);
  }

  private Value fieldValue(Message m, Field f, ProtoWire.Reader r, int wire, int depth) {
    if (f.scalar()) {
      return scalar(f, r, wire, m);
    }
    return value(m.type(f), expectLen(r, wire, m, f), depth + 1);
  }

  private static ProtoWire.Reader expectLen(ProtoWire.Reader r, int wire, Message m, Field f) {
    if (wire != ProtoWire.LEN) {
      throw wrongWire(m, f, wire);
    }
    return r.sub();
  }

  private static DecodeException wrongWire(Message m, Field f, int wire) {
    return new DecodeException("protobuf field " + f.name() + " (" + f.number() + ") of "
        + (m == null ? "a map entry" : m.name) + " has wire type " + wire + ", not "
        + wireTypeOf(f.type()));
  }

  private static Value scalar(Field f, ProtoWire.Reader r, int wire, Message m) {
    int expected = wireTypeOf(f.type());
    if (wire != expected) {
      throw wrongWire(m, f, wire);
    }
    switch (f.type()) {
      case "string":
        return Value.of(r.string());
      case "bytes":
        return Value.of(Base64.getEncoder().encodeToString(r.bytes()));
      case "bool":
        return Value.of(r.varint() != 0);
      case "int32":
        return Value.of((long) (int) r.varint());
      case "uint32":
        return Value.of(r.varint() & 0xffffffffL);
      case "int64":
      case "uint64":
        return Value.of(r.varint());
      case "sint32":
      case "sint64": {
        long v = r.varint();
        return Value.of((v >>> 1) ^ -(v & 1));
      }
      case "double":
        return number(Double.longBitsToDouble(r.fixed64()));
      case "float":
        return number(Float.intBitsToFloat(r.fixed32()));
      case "fixed64":
      case "sfixed64":
        return Value.of(r.fixed64());
      case "fixed32":
        return Value.of(r.fixed32() & 0xffffffffL);
      case "sfixed32":
        return Value.of((long) r.fixed32());
      default:
        throw new IllegalStateException(f.type());
    }
  }

  /**
   * A float as the JSON reader would see kube's JSON of it: Go writes an integral float64 below
   * 1e21 without fraction or exponent ({@code 1}, not {@code 1.0}), which reads back as an
   * integer.
   */
  private static Value number(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e18 && !(d == 0 && 1 / d < 0)) {
      return Value.of((long) d);
    }
    return Value.of(d);
  }

  private static int wireTypeOf(String type) {
    return switch (type) {
      case "string", "bytes" -> ProtoWire.LEN;
      case "double", "fixed64", "sfixed64" -> ProtoWire.FIXED64;
      case "float", "fixed32", "sfixed32" -> ProtoWire.FIXED32;
      case "bool", "int32", "int64", "uint32", "uint64", "sint32", "sint64" -> ProtoWire.VARINT;
      default -> ProtoWire.LEN;
    };
  }

  private static Value zero(String type) {
    return switch (type) {
      case "string", "bytes" -> Value.of("");
      case "bool" -> Value.of(false);
      case "double", "float" -> Value.of(0.0);
      default -> Value.of(0L);
    };
  }

  private static boolean isZero(Value v) {
    if (v instanceof StringValue s) {
      return s.value().isEmpty();
    }
    if (v instanceof IntegerValue i) {
      return i.value() == 0;
    }
    if (v instanceof FloatValue d) {
      return d.value() == 0;
    }
    return v instanceof BooleanValue b && !b.value();
  }
}
