/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

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
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Field;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Message;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Special;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Converts between the protobuf wire form of a message and its JSON value tree, as the Go
 * types of the Kubernetes API do: the generated marshallers (gogo) on the wire side and
 * {@code encoding/json} with the types' json tags on the other.
 *
 * <p>Writing follows gogo: fields in number order; a non-pointer scalar or struct field always
 * (zero when the JSON lacks it), a pointer field only when set, map entries sorted by key.
 * Reading follows Go's JSON of the decoded struct: a zero scalar is left out unless the field
 * is a pointer or its json tag has no omitempty; a struct is always written (a zero
 * {@code metav1.Time} as {@code null}, or left out with omitzero); empty lists and maps are
 * left out. Unknown field numbers are skipped, as gogo does.
 *
 * <p>Kubernetes' own types: {@code metav1.Time} (seconds; JSON RFC 3339 in seconds),
 * {@code MicroTime} (seconds and nanos; microseconds in JSON), {@code Duration} (nanoseconds;
 * Go's duration text), {@code IntOrString}, {@code resource.Quantity} (its string),
 * {@code RawExtension}, {@code FieldsV1} and apiextensions' {@code JSON} (raw JSON bytes), the
 * nullable string lists ({@code Verbs}, {@code ExtraValue}: a JSON array), and the
 * {@code JSONSchemaPropsOr*} unions. A {@code RawExtension} holding a protobuf object (the
 * {@code k8s\0} prefix, as in protobuf watch events) is read as that object.
 *
 * <p>Known differences from Go's JSON of the decoded object: an empty list or map whose json tag
 * has no omitempty is left out (Go writes {@code null}); an empty {@code Verbs}/{@code ExtraValue}
 * is {@code []}; a float with an integral value is an integer (Go writes {@code 1}, which reads
 * back as one). Where fields of an object do not fit their message (a string for an int32),
 * encoding fails rather than guessing.
 *
 * <p>Thread-safe. Nesting deeper than {@value #MAX_DEPTH} messages is refused with
 * {@link DecodeException}, as are raw JSON documents over {@link DecodeLimits#DEFAULT}.
 */
public final class ProtoCodec {
  /** Maximum message nesting read or written. */
  public static final int MAX_DEPTH = 512;
  static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final String UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown";
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /** The JSON value of a zero {@code metav1.Time}: null, or nothing with omitzero. */
  private static final Value ZERO_TIME = new StringValue("\0zero-time");

  private static final byte[] NO_BYTES = new byte[0];

  private final ProtoSchema schema;

  public ProtoCodec(ProtoSchema schema) {
    this.schema = schema;
  }

  /** The envelope of a protobuf body: the object's type and its bytes. */
  public record Envelope(String apiVersion, String kind, byte[] raw, String contentEncoding,
      String contentType) {}

  /** Whether this codec can read and write objects of this type. */
  public boolean supports(String apiVersion, String kind) {
    return schema.kind(apiVersion, kind).isPresent();
  }

  /**
   * Reads the {@code k8s\0} prefix and the {@code runtime.Unknown} envelope.
   *
   * @throws DecodeException when the bytes are not one
   */
  public static Envelope envelope(byte[] body) {
    if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0,
        MAGIC.length)) {
      throw new DecodeException("provided object is not a Kubernetes protobuf message");
    }
    ProtoWire.Reader r = new ProtoWire.Reader(body, MAGIC.length, body.length);
    String apiVersion = "";
    String kind = "";
    byte[] raw = new byte[0];
    String contentEncoding = "";
    String contentType = "";
    while (r.more()) {
      int tag = r.tag();
      int wire = tag & 7;
      switch (tag >>> 3) {
        case 1 -> {
          ProtoWire.Reader meta = lengthDelimited(r, wire, "typeMeta");
          while (meta.more()) {
            int t = meta.tag();
            if (t == (1 << 3 | 2)) {
              apiVersion = meta.string();
            } else if (t == (2 << 3 | 2)) {
              kind = meta.string();
            } else {
              meta.skip(t & 7);
            }
          }
        }
        case 2 -> raw = lengthDelimited(r, wire, "raw").bytesRemaining();
        case 3 -> contentEncoding = lengthDelimited(r, wire, "contentEncoding").stringRemaining();
        case 4 -> contentType = lengthDelimited(r, wire, "contentType").stringRemaining();
        default -> r.skip(wire);
      }
    }
    return new Envelope(apiVersion, kind, raw, contentEncoding, contentType);
  }

  private static ProtoWire.Reader lengthDelimited(ProtoWire.Reader r, int wire, String field) {
    if (wire != ProtoWire.LEN) {
      throw new DecodeException("runtime.Unknown field " + field + " has wire type " + wire);
    }
    return r.sub();
  }

  /**
   * The JSON object of an envelope: {@code kind} and {@code apiVersion} first, then the
   * object's fields.
   *
   * @throws DecodeException for malformed bytes
   * @throws IllegalArgumentException for a type this codec does not know (see
   *     {@link #supports})
   */
  public MapValue decode(Envelope e) {
    return decode(e, 0);
  }

  private MapValue decode(Envelope e, int depth) {
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

  /** The type and object of a {@link #encodeWatchEvent} message. */
  public record WatchEvent(String type, MapValue object) {}

  /**
   * Reads a watch event message (without length prefix or envelope).
   *
   * @throws DecodeException for malformed bytes
   */
  public WatchEvent decodeWatchEvent(byte[] event) {
    Value v = value(schema.message(ProtoSchema.META + "WatchEvent"),
        new ProtoWire.Reader(event), 0);
    MapValue m = (MapValue) v;
    String type = m.getOrNull("type") instanceof StringValue s ? s.value() : "";
    if (!(m.getOrNull("object") instanceof MapValue object)) {
      throw new DecodeException("watch event without an object");
    }
    return new WatchEvent(type, object);
  }

  /** The JSON value of one message's bytes (no envelope). */
  Value decodeMessage(String messageName, byte[] bytes) {
    return value(schema.message(messageName), new ProtoWire.Reader(bytes), 0);
  }

  /** {@link #envelope} then {@link #decode(Envelope)}. */
  public MapValue decode(byte[] body) {
    return decode(envelope(body));
  }

  /**
   * The protobuf body of a JSON object: prefix, envelope with its {@code apiVersion} and
   * {@code kind}, and the object's message. Fields the message does not have are dropped, as
   * Go's JSON decoding drops them.
   *
   * @throws IllegalArgumentException for a type this codec does not know, or a value that does
   *     not fit its field
   */
  public byte[] encode(MapValue object) {
    String apiVersion = object.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    String kind = object.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    Message m = schema.kind(apiVersion, kind).orElseThrow(() ->
        new IllegalArgumentException("no protobuf message for " + apiVersion + ", Kind="
            + kind));
    return envelopeOf(apiVersion, kind, message(m, object, 0, Where.root(kind)));
  }

  /**
   * A watch event as kube streams it in protobuf: a meta/v1 {@code WatchEvent} message without
   * envelope (kube's raw stream serializer) whose object holds the protobuf body of
   * {@code object} (JSON for a type without a protobuf form).
   */
  public byte[] encodeWatchEvent(String type, MapValue object) {
    String kind = object.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    String apiVersion = object.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    byte[] inner = schema.kind(apiVersion, kind).isPresent() ? encode(object)
        : Json.writeBytes(object);
    ProtoWire.Writer raw = new ProtoWire.Writer();
    raw.bytesField(1, inner);
    ProtoWire.Writer event = new ProtoWire.Writer();
    event.stringField(1, type);
    event.bytesField(2, raw.toByteArray());
    return event.toByteArray();
  }

  /**
   * The parts of a list kind that kube's streaming encoder writes one by one: the list message
   * must be exactly {@code metadata} (field 1, a message) and {@code items} (field 2, repeated
   * messages), as {@code collections.go} requires; empty otherwise.
   */
  public Optional<ListShape> listShape(String apiVersion, String kind) {
    Optional<Message> found = schema.kind(apiVersion, kind);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Message m = found.get();
    if (m.special != Special.NONE || m.wireOrder.length != 2) {
      return Optional.empty();
    }
    Field meta = m.wireOrder[0];
    Field items = m.wireOrder[1];
    boolean shaped = meta.number() == 1 && meta.json().equals("metadata") && !meta.scalar()
        && !meta.repeated() && !meta.inline() && items.number() == 2
        && items.json().equals("items") && items.repeated() && !items.map() && !items.scalar()
        && m.type(items).special == Special.NONE;
    return shaped ? Optional.of(new ListShape(apiVersion, kind, m, items))
        : Optional.empty();
  }

  /** A list kind whose list metadata and items can be encoded apart (see {@link #listShape}). */
  public final class ListShape {
    private final String apiVersion;
    private final String kind;
    private final Message list;
    private final Field items;

    private ListShape(String apiVersion, String kind, Message list, Field items) {
      this.apiVersion = apiVersion;
      this.kind = kind;
      this.list = list;
      this.items = items;
    }

    /**
     * The list message of {@code shell} without its items: the {@code metadata} field with its
     * tag and length, as the whole list's message starts.
     *
     * @throws IllegalArgumentException when a value does not fit its field
     */
    public byte[] head(MapValue shell) {
      return message(list, shell.without("items"), 0, Where.root(kind));
    }

    /**
     * The message of one item, without tag or length.
     *
     * @throws IllegalArgumentException when a value does not fit its field
     */
    public byte[] item(MapValue item) {
      return message(list.type(items), item, 1, Where.root(kind).field("items").then("[]"));
    }

    /**
     * Writes the body prefix, the envelope up to the list's bytes, and the length of the list
     * message ({@code listSize}: the head and every item with its tag and length).
     */
    public void writeEnvelopeStart(OutputStream out, long listSize)
        throws IOException {
      ProtoWire.Writer meta = new ProtoWire.Writer();
      meta.stringField(1, apiVersion);
      meta.stringField(2, kind);
      ProtoWire.Writer w = new ProtoWire.Writer();
      w.raw(MAGIC);
      w.bytesField(1, meta.toByteArray());
      w.tag(2, ProtoWire.LEN);
      w.varint(listSize);
      out.write(w.toByteArray());
    }

    /** Writes one item: the {@code items} tag, its length and its message. */
    public void writeItem(OutputStream out, byte[] item) throws IOException {
      writeVarint(out, ((long) items.number() << 3) | ProtoWire.LEN);
      writeVarint(out, item.length);
      out.write(item);
    }

    /** The bytes {@link #writeItem} writes for an item of {@code itemSize} bytes. */
    public long itemFieldSize(int itemSize) {
      return 1 + varintSize(itemSize) + (long) itemSize;
    }

    /** Writes what follows the list's bytes: the envelope's empty content encoding and type. */
    public void writeEnvelopeEnd(OutputStream out) throws IOException {
      ProtoWire.Writer w = new ProtoWire.Writer();
      w.stringField(3, "");
      w.stringField(4, "");
      out.write(w.toByteArray());
    }
  }

  private static void writeVarint(OutputStream out, long v) throws IOException {
    while ((v & ~0x7fL) != 0) {
      out.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static int varintSize(long v) {
    int n = 1;
    while ((v & ~0x7fL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  private static byte[] envelopeOf(String apiVersion, String kind, byte[] raw) {
    ProtoWire.Writer meta = new ProtoWire.Writer();
    meta.stringField(1, apiVersion);
    meta.stringField(2, kind);
    ProtoWire.Writer w = new ProtoWire.Writer();
    w.raw(MAGIC);
    w.bytesField(1, meta.toByteArray());
    w.bytesField(2, raw);
    w.stringField(3, "");
    w.stringField(4, "");
    return w.toByteArray();
  }

  // ---- reading ----------------------------------------------------------------------------

  /** The JSON value of one message's bytes. */
  private Value value(Message m, ProtoWire.Reader r, int depth) {
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
          Envelope embedded = envelope(raw);
          if (!supports(embedded.apiVersion(), embedded.kind())) {
            throw new DecodeException("embedded protobuf object of unknown type "
                + embedded.apiVersion() + ", Kind=" + embedded.kind());
          }
          return decode(embedded, depth + 1);
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

  // ---- writing ----------------------------------------------------------------------------

  /** The bytes of one message from its JSON value. */
  private byte[] message(Message m, Value v, int depth, Where path) {
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

  /** The positions of a map's entries in key order (gogo writes map entries sorted by key). */
  /**
   * Where a value being written sits, for error messages: built as the walk goes down (a small
   * object a level), turned into text only when a value does not fit.
   */
  private static final class Where {
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
