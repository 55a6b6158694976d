/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.ProtobufCodec;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) at the HTTP edge,
 * for every built-in kind of the served release's GA API ({@link ProtobufCodec#builtIn(
 * io.apiserver4j.kubeapi.KubeVersion)}, the server's emulated version): request bodies are read
 * into the JSON form the pipeline takes, responses written when the client negotiated protobuf.
 * kubectl's typed commands ({@code create deployment|job|service|...}) send protobuf and do not
 * fall back to JSON; client-go asks for protobuf first in its Accept header.
 *
 * <p>As kube-apiserver, custom resources have no protobuf form: a protobuf body of a kind the
 * codec does not know is 415, and protobuf is not offered in their content negotiation.
 */
final class ProtobufBodies {
  static final String MEDIA_TYPE = ProtobufCodec.MEDIA_TYPE;
  static final String WATCH_MEDIA_TYPE = ProtobufCodec.WATCH_MEDIA_TYPE;
  private static final Logger LOG = LoggerFactory.getLogger(ProtobufBodies.class);

  private ProtobufBodies() {}

  /** Whether responses of this resource may be protobuf. */
  static OutputFormat.Protobuf offered(ResourceDefinition def) {
    return def.customResource() ? OutputFormat.Protobuf.NOT_OFFERED
        : OutputFormat.Protobuf.OFFERED;
  }

  /**
   * The JSON object of a protobuf request body.
   *
   * @param acceptedMediaTypes the body media types named in a 415 answer (protobuf itself is
   *     left out: it is what did not work)
   * @throws io.apiserver4j.core.errors.UnsupportedMediaTypeException for kinds that have no protobuf
   *     form (custom resources)
   * @throws io.apiserver4j.core.errors.BadRequestException for malformed bodies
   */
  static MapValue decode(ProtobufCodec codec, byte[] body, List<String> acceptedMediaTypes) {
    try {
      return codec.decode(body);
    } catch (ProtobufCodec.UnsupportedKindException e) {
      throw StatusErrors.unsupportedMediaType(acceptedMediaTypes.stream()
          .filter(t -> !t.equals(MEDIA_TYPE)).toList());
    } catch (DecodeException e) {
      throw StatusErrors.badRequest(e.getMessage());
    }
  }

  /**
   * The protobuf body of a response object, or empty when it has no protobuf form (a kind the
   * codec does not know, or a value that does not fit its message, which is logged).
   */
  static Optional<byte[]> encode(ProtobufCodec codec, Value body) {
    if (!(body instanceof MapValue object)) {
      return Optional.empty();
    }
    String apiVersion = object.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    String kind = object.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    if (!codec.supports(apiVersion, kind)) {
      return Optional.empty();
    }
    try {
      return Optional.of(codec.encode(object));
    } catch (IllegalArgumentException e) {
      LOG.warn("{} {} cannot be written as protobuf: {}", apiVersion, kind, e.getMessage());
      return Optional.empty();
    }
  }

  /** Encoded items a streamed protobuf list keeps from sizing them to writing them. */
  static final long LIST_RETAIN_BYTES = 8L << 20;

  /**
   * A list's protobuf body ready to stream (kube 1.33+ streams protobuf lists), or empty when it
   * has no protobuf form: a list kind the codec does not stream, or an item that does not fit
   * its message (logged), which kube's clients then read as JSON.
   */
  static Optional<ProtobufCodec.PreparedList> prepareList(ProtobufCodec codec,
      StreamedList list) {
    MapValue shell = list.shell();
    String apiVersion = shell.getOrNull("apiVersion") instanceof StringValue s ? s.value() : "";
    String kind = shell.getOrNull("kind") instanceof StringValue s ? s.value() : "";
    if (!codec.streamsList(apiVersion, kind)) {
      return Optional.empty();
    }
    try {
      return Optional.of(codec.prepareList(shell.with("items", ListValue.empty()), list.size(),
          list::item, LIST_RETAIN_BYTES));
    } catch (IllegalArgumentException e) {
      LOG.warn("{} {} cannot be written as protobuf: {}", apiVersion, kind, e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * One event of a protobuf watch stream as kube's length-delimited framer writes it: the
   * 4-byte big-endian length, then the {@code WatchEvent} message.
   */
  static byte[] watchFrame(ProtobufCodec codec, String type, MapValue object) {
    byte[] event = codec.encodeWatchEvent(type, object);
    byte[] frame = new byte[event.length + 4];
    frame[0] = (byte) (event.length >>> 24);
    frame[1] = (byte) (event.length >>> 16);
    frame[2] = (byte) (event.length >>> 8);
    frame[3] = (byte) event.length;
    System.arraycopy(event, 0, frame, 4, event.length);
    return frame;
  }
}
