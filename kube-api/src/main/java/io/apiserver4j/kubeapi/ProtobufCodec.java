/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.kubeapi.internal.proto.ProtoCodec;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Kubernetes' protobuf encoding ({@value #MEDIA_TYPE}) of the built-in kinds of the 1.36 GA
 * API, driven by descriptors generated from the upstream {@code generated.proto} files: a
 * {@code k8s\0} prefix, then a {@code runtime.Unknown} envelope holding the type
 * ({@code apiVersion}, {@code kind}) and the object's message.
 *
 * <p>Objects are JSON value trees in and out, exactly as kube-apiserver's JSON would show the Go
 * object that the protobuf bytes decode to: zero values of non-pointer fields left out where
 * Go's omitempty leaves them out, times as RFC 3339 text, quantities and int-or-strings in their
 * JSON forms, byte fields as base64. Kinds of other group versions and custom resources are not
 * supported (kube serves them in JSON only).
 *
 * <p>Immutable and thread-safe; a codec of {@link #builtIn()} parses its release's descriptors
 * once, on its first use.
 */
public final class ProtobufCodec {
  /** The media type of protobuf bodies. */
  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  /** The media type of protobuf watch streams (each event prefixed by its 4-byte length). */
  public static final String WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch";

  private static final class Holder {
    static final ProtobufCodec BUILT_IN =
        new ProtobufCodec(() -> new ProtoCodec(ProtoSchema.builtIn()));
  }

  // the release's descriptors are parsed by the first protobuf body, not by a server's start
  private final java.util.function.Supplier<ProtoCodec> load;
  private volatile ProtoCodec codec;

  private ProtobufCodec(java.util.function.Supplier<ProtoCodec> load) {
    this.load = load;
  }

  private ProtoCodec codec() {
    ProtoCodec c = codec;
    if (c == null) {
      synchronized (this) {
        c = codec;
        if (c == null) {
          c = load.get();
          codec = c;
        }
      }
    }
    return c;
  }

  private static final java.util.Map<KubeVersion, ProtobufCodec> OLDER =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** {@return the codec of the built-in API of the newest release} */
  public static ProtobufCodec builtIn() {
    return Holder.BUILT_IN;
  }

  /**
   * {@return the codec of {@code version}'s built-in API (its {@code generated.proto} files),
   * loaded on first use}
   *
   * @param version the release
   */
  public static ProtobufCodec builtIn(KubeVersion version) {
    if (version == KubeVersion.latest()) {
      return builtIn();
    }
    return OLDER.computeIfAbsent(version,
        v -> new ProtobufCodec(() -> new ProtoCodec(ProtoSchema.builtIn(v))));
  }

  /**
   * Thrown by {@link #decode} for a well-formed body of a type this codec does not know.
   */
  public static final class UnsupportedKindException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    /** The apiVersion of the body. */
    private final String apiVersion;
    /** The kind of the body. */
    private final String kind;

    UnsupportedKindException(String apiVersion, String kind) {
      super("no protobuf encoding for " + (apiVersion.isEmpty() ? "" : apiVersion + ", ")
          + "Kind=" + kind);
      this.apiVersion = apiVersion;
      this.kind = kind;
    }

    /** {@return the apiVersion of the body, empty when it had none} */
    public String apiVersion() {
      return apiVersion;
    }

    /** {@return the kind of the body} */
    public String kind() {
      return kind;
    }
  }

  /**
   * {@return whether objects of this type can be read and written in protobuf}
   *
   * @param apiVersion the type's apiVersion, e.g. {@code apps/v1}
   * @param kind the type's kind, e.g. {@code Deployment}
   */
  public boolean supports(String apiVersion, String kind) {
    return codec().supports(Objects.requireNonNull(apiVersion, "apiVersion"),
        Objects.requireNonNull(kind, "kind"));
  }

  /**
   * {@return the JSON object of a protobuf body, {@code kind} and {@code apiVersion} first}
   *
   * @param body a protobuf body with kube's envelope
   * @throws DecodeException when the body is not a well-formed protobuf object
   * @throws UnsupportedKindException when its type is not a built-in kind
   */
  public MapValue decode(byte[] body) {
    ProtoCodec.Envelope e = ProtoCodec.envelope(Objects.requireNonNull(body, "body"));
    if (!codec().supports(e.apiVersion(), e.kind())) {
      throw new UnsupportedKindException(e.apiVersion(), e.kind());
    }
    return codec().decode(e);
  }

  /**
   * The protobuf body of a JSON object of a supported type; fields its message does not have
   * are dropped, as Go's decoding drops them.
   *
   * @param object the object, with its {@code apiVersion} and {@code kind}
   * @return the body, with kube's envelope
   * @throws IllegalArgumentException when the type is not supported or a value does not fit its
   *     field (the message names the field)
   */
  public byte[] encode(MapValue object) {
    return codec().encode(Objects.requireNonNull(object, "object"));
  }

  /**
   * One event of a protobuf watch stream, without its length prefix: a meta/v1
   * {@code WatchEvent} message (no envelope, as kube's stream serializer writes it) whose object
   * holds the protobuf body of {@code object}.
   *
   * @param type the event type, e.g. {@code ADDED}
   * @param object the event's object, of a supported type
   * @return the encoded event
   * @throws IllegalArgumentException when the object's type is not supported or a value does
   *     not fit its field
   */
  public byte[] encodeWatchEvent(String type, MapValue object) {
    return codec().encodeWatchEvent(Objects.requireNonNull(type, "type"),
        Objects.requireNonNull(object, "object"));
  }

  /**
   * {@return whether lists of this kind can be written item by item ({@link #prepareList})}
   *
   * @param apiVersion the list's apiVersion, e.g. {@code v1}
   * @param kind the list's kind, e.g. {@code PodList}
   */
  public boolean streamsList(String apiVersion, String kind) {
    return codec().listShape(Objects.requireNonNull(apiVersion, "apiVersion"),
        Objects.requireNonNull(kind, "kind")).isPresent();
  }

  /**
   * Prepares the protobuf body of a list as kube 1.33+ streams it ({@code collections.go} of
   * apimachinery's protobuf serializer): the list's length comes before its bytes, so every
   * item is encoded once to learn its size, then written one by one, byte for byte what
   * {@link #encode} writes for the whole list. Encoded items are kept until written while they
   * add up to at most {@code retainBytes}; the others are encoded again when written, so the
   * heap a list holds is bounded whatever its length. Encoding fails here, before any byte is
   * written, when an item does not fit its message.
   *
   * @param shell the list object (apiVersion, kind, metadata) without items
   * @param size the number of items
   * @param item item {@code i} as the list holds it; asked again for an item not kept, it must
   *     give the same object
   * @param retainBytes how many bytes of encoded items may be kept until written
   * @return the list, ready to be written
   * @throws IllegalArgumentException when lists of the shell's kind cannot be streamed
   *     ({@link #streamsList}) or a value does not fit its field
   */
  public PreparedList prepareList(MapValue shell, int size, IntFunction<MapValue> item,
      long retainBytes) {
    Objects.requireNonNull(shell, "shell");
    Objects.requireNonNull(item, "item");
    String apiVersion = shell.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    String kind = shell.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    ProtoCodec.ListShape shape = codec().listShape(apiVersion, kind).orElseThrow(() ->
        new IllegalArgumentException("no streamed protobuf list for " + apiVersion + ", Kind="
            + kind));
    byte[] head = shape.head(shell);
    int[] sizes = new int[size];
    byte[][] kept = new byte[size][];
    long total = head.length;
    long keptBytes = 0;
    for (int i = 0; i < size; i++) {
      byte[] b = shape.item(item.apply(i));
      sizes[i] = b.length;
      total += shape.itemFieldSize(b.length);
      if (keptBytes + b.length <= retainBytes) {
        kept[i] = b;
        keptBytes += b.length;
      }
    }
    return new PreparedList(shape, head, sizes, kept, total, item);
  }

  /**
   * A list body ready to be written ({@link #prepareList}). Written once, by one thread.
   */
  public static final class PreparedList {
    private final ProtoCodec.ListShape shape;
    private final byte[] head;
    private final int[] sizes;
    private final byte[][] kept;
    private final long listSize;
    private final IntFunction<MapValue> item;

    private PreparedList(ProtoCodec.ListShape shape, byte[] head, int[] sizes, byte[][] kept,
        long listSize, IntFunction<MapValue> item) {
      this.shape = shape;
      this.head = head;
      this.sizes = sizes;
      this.kept = kept;
      this.listSize = listSize;
      this.item = item;
    }

    /** {@return the number of items kept encoded since {@link #prepareList}} */
    public int keptItems() {
      int n = 0;
      for (byte[] b : kept) {
        if (b != null) {
          n++;
        }
      }
      return n;
    }

    /**
     * Writes the body, item by item; an item kept is released once written. Does not close
     * {@code out}.
     *
     * @param out where the body goes
     * @throws IOException when {@code out} fails
     * @throws IllegalStateException when an item encoded again differs in size from its first
     *     encoding (the item function did not give the same object)
     */
    public void writeTo(OutputStream out) throws IOException {
      Objects.requireNonNull(out, "out");
      shape.writeEnvelopeStart(out, listSize);
      out.write(head);
      for (int i = 0; i < sizes.length; i++) {
        byte[] b = kept[i];
        kept[i] = null;
        if (b == null) {
          b = shape.item(item.apply(i));
          if (b.length != sizes[i]) {
            throw new IllegalStateException("list item " + i + " encoded to " + b.length
                + " bytes, not the " + sizes[i] + " its size was taken from");
          }
        }
        shape.writeItem(out, b);
      }
      shape.writeEnvelopeEnd(out);
    }
  }

  /**
   * A decoded watch event: its type and object.
   *
   * @param type the event type, e.g. {@code MODIFIED}
   * @param object the event's object
   */
  public record WatchEvent(String type, MapValue object) {}

  /**
   * Reads one event of a protobuf watch stream (without its length prefix).
   *
   * @param event the event's bytes
   * @return the event's type and object
   * @throws DecodeException for malformed bytes
   */
  public WatchEvent decodeWatchEvent(byte[] event) {
    ProtoCodec.WatchEvent e = codec().decodeWatchEvent(Objects.requireNonNull(event, "event"));
    return new WatchEvent(e.type(), e.object());
  }
}
