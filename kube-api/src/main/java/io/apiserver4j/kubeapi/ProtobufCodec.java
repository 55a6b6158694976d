/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.kubeapi.internal.proto.ProtoCodec;
import io.apiserver4j.kubeapi.internal.proto.ProtoSchema;
import java.util.Objects;

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
 * <p>Immutable and thread-safe; {@link #builtIn()} loads the descriptors once.
 */
public final class ProtobufCodec {
  /** The media type of protobuf bodies. */
  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  /** The media type of protobuf watch streams (each event prefixed by its 4-byte length). */
  public static final String WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch";

  private static final class Holder {
    static final ProtobufCodec BUILT_IN = new ProtobufCodec(new ProtoCodec(ProtoSchema.builtIn()));
  }

  private final ProtoCodec codec;

  private ProtobufCodec(ProtoCodec codec) {
    this.codec = codec;
  }

  /** The codec of the built-in API. */
  public static ProtobufCodec builtIn() {
    return Holder.BUILT_IN;
  }

  /**
   * Thrown by {@link #decode} for a well-formed body of a type this codec does not know.
   */
  public static final class UnsupportedKindException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String apiVersion;
    private final String kind;

    UnsupportedKindException(String apiVersion, String kind) {
      super("no protobuf encoding for " + (apiVersion.isEmpty() ? "" : apiVersion + ", ")
          + "Kind=" + kind);
      this.apiVersion = apiVersion;
      this.kind = kind;
    }

    public String apiVersion() {
      return apiVersion;
    }

    public String kind() {
      return kind;
    }
  }

  /** Whether objects of this type can be read and written in protobuf. */
  public boolean supports(String apiVersion, String kind) {
    return codec.supports(Objects.requireNonNull(apiVersion, "apiVersion"),
        Objects.requireNonNull(kind, "kind"));
  }

  /**
   * The JSON object of a protobuf body, {@code kind} and {@code apiVersion} first.
   *
   * @throws DecodeException when the body is not a well-formed protobuf object
   * @throws UnsupportedKindException when its type is not a built-in kind
   */
  public MapValue decode(byte[] body) {
    ProtoCodec.Envelope e = ProtoCodec.envelope(Objects.requireNonNull(body, "body"));
    if (!codec.supports(e.apiVersion(), e.kind())) {
      throw new UnsupportedKindException(e.apiVersion(), e.kind());
    }
    return codec.decode(e);
  }

  /**
   * The protobuf body of a JSON object of a supported type; fields its message does not have
   * are dropped, as Go's decoding drops them.
   *
   * @throws IllegalArgumentException when the type is not supported or a value does not fit its
   *     field (the message names the field)
   */
  public byte[] encode(MapValue object) {
    return codec.encode(Objects.requireNonNull(object, "object"));
  }

  /**
   * One event of a protobuf watch stream, without its length prefix: a meta/v1
   * {@code WatchEvent} message (no envelope, as kube's stream serializer writes it) whose object
   * holds the protobuf body of {@code object}.
   */
  public byte[] encodeWatchEvent(String type, MapValue object) {
    return codec.encodeWatchEvent(Objects.requireNonNull(type, "type"),
        Objects.requireNonNull(object, "object"));
  }

  /** A decoded watch event: its type and object. */
  public record WatchEvent(String type, MapValue object) {}

  /**
   * Reads one event of a protobuf watch stream (without its length prefix).
   *
   * @throws DecodeException for malformed bytes
   */
  public WatchEvent decodeWatchEvent(byte[] event) {
    ProtoCodec.WatchEvent e = codec.decodeWatchEvent(Objects.requireNonNull(event, "event"));
    return new WatchEvent(e.type(), e.object());
  }
}
