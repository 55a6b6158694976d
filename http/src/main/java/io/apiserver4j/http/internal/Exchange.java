/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.kubeapi.ProtobufCodec;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.storage.StoredObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request/response pair. A response is sent at most once: the request-timeout watchdog and
 * the handler race to answer, and whichever comes second is dropped (kube's timeout filter
 * behaves the same: the handler's late result is discarded).
 */
final class Exchange {
  /** The served release's protobuf messages. */
  private final ProtobufCodec codec;
  final Request request;
  final Response response;
  /** Whether the handler took the request body off the connection (or tried to). */
  boolean bodyRead;
  final Callback callback;
  /** Logs and counts the request when it ends; set by the handler before routing. */
  RequestObserver observer;
  /** The request's audit; set once the user is known. */
  volatile AuditRecorder audit = AuditRecorder.NONE;
  /** Whether a stream outlives the handler and completes the audit itself (WebSocket). */
  volatile boolean auditDetached;
  private final AtomicBoolean answered = new AtomicBoolean();

  Exchange(Request request, Response response, Callback callback, ProtobufCodec codec) {
    this.codec = codec;
    this.request = request;
    this.response = response;
    this.callback = callback;
  }

  /** Claims the right to answer; false when someone already answered. */
  boolean claim() {
    return answered.compareAndSet(false, true);
  }

  boolean answered() {
    return answered.get();
  }

  /** Sends a complete response, if nobody answered yet. */
  void send(int code, String contentType, byte[] body, List<String> warnings) {
    if (!claim()) {
      return;
    }
    sendClaimed(code, contentType, body, warnings);
  }

  /** Sends a complete response after {@link #claim()} succeeded. */
  void sendClaimed(int code, String contentType, byte[] body, List<String> warnings) {
    audit.responseStarted(code);
    response.setStatus(code);
    if (contentType != null) {
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    }
    for (String w : warnings) {
      response.getHeaders().add("Warning", warningHeader(w));
    }
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  void sendValue(int code, Value body, OutputFormat.Encoding encoding, String contentType,
      List<String> warnings) {
    String type = contentType;
    byte[] bytes;
    if (encoding == OutputFormat.Encoding.PROTOBUF) {
      Optional<byte[]> proto = ProtobufBodies.encode(codec, body);
      // what protobuf cannot carry goes as JSON, which every protobuf client also accepts
      type = proto.isPresent() ? contentType : OutputFormat.Encoding.JSON.mediaType();
      bytes = proto.isPresent() ? proto.get() : encode(codec, body, OutputFormat.Encoding.JSON);
    } else {
      bytes = encode(codec, body, encoding);
    }
    if (!claim()) {
      return;
    }
    audit.responseObject(body);
    // kube's error writer tells clients when to retry (504 too large resource version, 429)
    if (body instanceof MapValue m && "Status".equals(Nested.str(m, "kind"))
        && Nested.map(m, "details").getOrNull("retryAfterSeconds")
            instanceof io.apiserver4j.core.IntegerValue seconds && seconds.value() > 0) {
      response.getHeaders().put("Retry-After", Long.toString(seconds.value()));
    }
    sendClaimed(code, type, bytes, warnings);
  }

  /**
   * Sends JSON bytes of a successful answer; {@code decoded} is the body's value, asked for only
   * when the request is audited.
   */
  void sendJson(int code, String contentType, byte[] json,
      java.util.function.Supplier<? extends Value> decoded, List<String> warnings) {
    if (!claim()) {
      return;
    }
    if (audit != AuditRecorder.NONE) {
      audit.responseObject(decoded.get());
    }
    sendClaimed(code, contentType, json, warnings);
  }

  /**
   * A stored object's JSON as {@link #encode} writes its value: compact, ended by a newline,
   * copied from the stored bytes where the store keeps them.
   */
  static byte[] json(io.apiserver4j.storage.StoredObject object) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(512);
    object.writeJson(out, io.apiserver4j.storage.StoredObject.TypeMeta.KEEP);
    out.write('\n');
    return out.toByteArray();
  }

  /** Writes a response body piece by piece. */
  interface BodyWriter {
    void write(java.io.OutputStream out) throws java.io.IOException;
  }

  /**
   * Streams a body as it is written, a list item by item (kube 1.33+ streams JSON and protobuf
   * lists). Without a length, so the answer is chunked; a failure once the status is sent can
   * only cut the connection, as kube's does.
   */
  void sendStreamed(int code, String contentType, List<String> warnings, BodyWriter body) {
    if (!claim()) {
      return;
    }
    audit.responseStarted(code);
    response.setStatus(code);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    for (String w : warnings) {
      response.getHeaders().add("Warning", warningHeader(w));
    }
    try {
      // closed only when the whole body is written: closing ends the response as complete,
      // whereas a failed callback cuts it short
      java.io.OutputStream out = new java.io.BufferedOutputStream(
          org.eclipse.jetty.io.Content.Sink.asOutputStream(response), LIST_BUFFER);
      body.write(out);
      out.close();
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      // the client went away
      callback.failed(e);
      return;
    } catch (RuntimeException | Error e) {
      LOG.error("internal error streaming a response to {}", request.getHttpURI(), e);
      callback.failed(e);
      return;
    }
    callback.succeeded();
  }

  /** Bytes of a streamed list written to the connection at once. */
  private static final int LIST_BUFFER = 32 * 1024;
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Exchange.class);

  /** A Status error body, in JSON unless the client negotiated YAML or protobuf. */
  void sendStatus(Status status, OutputFormat.Encoding encoding, List<String> warnings) {
    sendValue(status.code(), statusValue(status), encoding, encoding.mediaType(), warnings);
  }

  void sendText(int code, String text) {
    send(code, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8), List.of());
  }

  /**
   * An object or Status as kube's serializers write it: YAML, or JSON ended by a newline (Go's
   * {@code json.Encoder}, and kube's streaming list encoder, end each document with one).
   */
  static byte[] encode(ProtobufCodec codec, Value body, OutputFormat.Encoding encoding) {
    if (encoding == OutputFormat.Encoding.PROTOBUF) {
      Optional<byte[]> bytes = ProtobufBodies.encode(codec, body);
      if (bytes.isPresent()) {
        return bytes.get();
      }
    }
    if (encoding == OutputFormat.Encoding.YAML) {
      return Yaml.write(body).getBytes(StandardCharsets.UTF_8);
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(256);
    Json.write(body, out);
    out.write('\n');
    return out.toByteArray();
  }

  /**
   * The Status as kube-apiserver writes it. Go emits {@code "details":{}} when the details
   * pointer is set but empty (the generic 404/405 answers of go-restful); our Status model
   * omits empty details, so they are put back here.
   */
  static MapValue statusValue(Status status) {
    MapValue v = status.toValue();
    if (status.details().isPresent() && v.getOrNull("details") == null) {
      MapValue.Builder b = MapValue.builder();
      for (int i = 0; i < v.size(); i++) {
        if (v.keyAt(i).equals("code")) {
          b.put("details", MapValue.empty());
        }
        b.put(v.keyAt(i), v.valueAt(i));
      }
      return b.build();
    }
    return v;
  }

  /**
   * A {@code Warning} header value as kube-apiserver writes it: code 299, agent {@code -}, the
   * text quoted with {@code \} and {@code "} escaped and control characters blanked.
   */
  static String warningHeader(String text) {
    StringBuilder sb = new StringBuilder("299 - \"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(' ');
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
