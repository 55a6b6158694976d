/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.internal.proto.ProtoEncoder.Where;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Field;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Message;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema.Special;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
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

  private final ProtoSchema schema;
  private final ProtoDecoder decoder;
  private final ProtoEncoder encoder;

  public ProtoCodec(ProtoSchema schema) {
    this.schema = schema;
    this.decoder = new ProtoDecoder(schema);
    this.encoder = new ProtoEncoder();
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
    return decoder.object(e, 0);
  }

  /** The type and object of a {@link #encodeWatchEvent} message. */
  public record WatchEvent(String type, MapValue object) {}

  /**
   * Reads a watch event message (without length prefix or envelope).
   *
   * @throws DecodeException for malformed bytes
   */
  public WatchEvent decodeWatchEvent(byte[] event) {
    Value v = decoder.value(schema.message(ProtoSchema.META + "WatchEvent"),
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
    return decoder.value(schema.message(messageName), new ProtoWire.Reader(bytes), 0);
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
    return envelopeOf(apiVersion, kind, encoder.message(m, object, 0, Where.root(kind)));
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
      return encoder.message(list, shell.without("items"), 0, Where.root(kind));
    }

    /**
     * The message of one item, without tag or length.
     *
     * @throws IllegalArgumentException when a value does not fit its field
     */
    public byte[] item(MapValue item) {
      return encoder.message(list.type(items), item, 1,
          Where.root(kind).field("items").then("[]"));
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

  /** The {@code runtime.Unknown} envelope kube writes around {@code raw}, magic prefix first. */
  public static byte[] envelopeOf(String apiVersion, String kind, byte[] raw) {
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
}
