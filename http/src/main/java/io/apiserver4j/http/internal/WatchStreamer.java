/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.kubeapi.ProtobufCodec;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.authz.AuditRecorder;
import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a watch as kube-apiserver does, one JSON {@code {"type":...,"object":...}} per event
 * (or, when the client negotiated protobuf, one length-prefixed {@code WatchEvent} message),
 * until {@code timeoutSeconds} (or a random duration between the minimum watch timeout and
 * twice it), the client leaving, the watch ending, or the server shutting down:
 *
 * <ul>
 *   <li>over plain HTTP: status 200, chunked, one event per line, flushed per event;
 *   <li>over WebSocket, when the request asks for an upgrade (the fabric8 client does): one
 *       text message per event, then a normal close.
 * </ul>
 *
 * <p>With {@code as=Table} every object is a one-row Table, the first carrying the column
 * definitions. A watch that cannot start because its resource version is too old gets a single
 * ERROR event with the 410 Status, as in kube.
 *
 * <p>Slow consumers: the events waiting for a client are bounded by the watch's own buffer (the
 * store ends a watch that falls that far behind, as kube's watch cache terminates unresponsive
 * watchers), and one write may block at most the write timeout, and never past the watch's
 * deadline: a client that stops reading has its connection closed and frees its thread.
 */
public final class WatchStreamer {
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Logger LOG = LoggerFactory.getLogger(WatchStreamer.class);

  private final Set<ApiWatch> active = ConcurrentHashMap.newKeySet();
  private final Clock clock;
  private final Duration minTimeout;
  private final Executor executor;
  private final ServerWebSocketContainer webSockets;
  private final Duration writeTimeout;
  private final ProtobufCodec codec;
  private volatile boolean closed;

  public WatchStreamer(Clock clock, Duration minTimeout, Executor executor,
      ServerWebSocketContainer webSockets) {
    this(clock, minTimeout, executor, webSockets, DEFAULT_WRITE_TIMEOUT,
        ProtobufCodec.builtIn());
  }

  /**
   * @param writeTimeout how long one event may take to reach a client before the stream is cut
   * @param codec the served release's protobuf messages
   */
  public WatchStreamer(Clock clock, Duration minTimeout, Executor executor,
      ServerWebSocketContainer webSockets, Duration writeTimeout, ProtobufCodec codec) {
    this.codec = codec;
    this.clock = clock;
    this.minTimeout = minTimeout;
    this.executor = executor;
    this.webSockets = webSockets;
    this.writeTimeout = writeTimeout;
  }

  /** The default bound on one event write to a watch client. */
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(10);

  /** Ends every running watch (their streams end normally); later watches end at once. */
  public void closeAll() {
    closed = true;
    for (ApiWatch w : active) {
      w.close();
    }
  }

  /** The number of watches being streamed. */
  public int activeCount() {
    return active.size();
  }

  /** Where encoded events go: an HTTP response or a WebSocket session. */
  private interface Sink {
    /** Sends one event, waiting at most {@code wait}; false when the client is gone or slow. */
    boolean send(byte[] event, Duration wait);

    /** Ends the stream normally. */
    void finish();

    /** Ends the stream after the client went away. */
    void abort();
  }

  /** How events become bytes for one watch. */
  private final class Encoder {
    private final OutputFormat format;
    private final Tables tables;
    private boolean firstObject = true;

    Encoder(ResourceDefinition def, OutputFormat format, Fields query,
        List<Tables.PrinterColumn> printerColumns) {
      this.format = format;
      this.tables = format.conversion() == OutputFormat.Conversion.TABLE
          ? Tables.of(def, printerColumns, Tables.IncludeObject.parse(
              Optional.ofNullable(query.getValue("includeObject")).orElse("")),
              format.metaVersion())
          : null;
    }

    byte[] encode(ApiWatchEvent event) {
      if (event.storedObject().isPresent() && format.encoding() == OutputFormat.Encoding.JSON
          && format.conversion() == OutputFormat.Conversion.NONE) {
        // an object served as stored: its stored JSON, without decoding and encoding it again
        return line(event.type(), event.storedObject().get());
      }
      MapValue object = event.object();
      Value out = object;
      switch (event.type()) {
        case "ADDED":
        case "MODIFIED":
        case "DELETED":
          if (tables != null) {
            out = tables.ofObject(object, clock.instant(), firstObject);
            firstObject = false;
          } else if (format.conversion() == OutputFormat.Conversion.PARTIAL_OBJECT_METADATA) {
            out = Tables.partialObjectMetadata(object, format.metaVersion());
          }
          break;
        case "BOOKMARK":
          if (tables != null) {
            out = tableBookmark(object, format);
          } else if (format.conversion() == OutputFormat.Conversion.PARTIAL_OBJECT_METADATA) {
            out = Tables.partialObjectMetadata(object, format.metaVersion());
          }
          break;
        default:
          break;
      }
      return frame(event.type(), out);
    }

    /** One event in the stream's encoding. */
    byte[] frame(String type, Value object) {
      if (format.encoding() == OutputFormat.Encoding.PROTOBUF && object instanceof MapValue m) {
        return ProtobufBodies.watchFrame(codec, type, m);
      }
      return line(type, object);
    }
  }

  void stream(Exchange ex, ApiRequest request, ResourceDefinition def, OutputFormat format,
      Fields query, Backend backend, List<Tables.PrinterColumn> printerColumns) {
    Duration timeout = timeout(query);
    Encoder encoder = new Encoder(def, format, query, printerColumns);
    ApiWatch watch;
    try {
      watch = backend.watch(request);
    } catch (GoneException e) {
      if (!ex.claim()) {
        return;
      }
      HttpSink sink = new HttpSink(ex, format);
      sink.send(encoder.frame("ERROR", Exchange.statusValue(e.status())), writeTimeout);
      sink.finish();
      return;
    }
    if (!ex.claim()) {
      watch.close();
      return;
    }
    // a watch raises its resource's warnings (a deprecated version's) in its response headers
    for (String w : def.warnings()) {
      ex.response.getHeaders().add("Warning", Exchange.warningHeader(w));
    }
    active.add(watch);
    if (closed) {
      watch.close();
    }
    if (isWebSocket(ex) && webSockets != null) {
      boolean upgraded;
      // the stream outlives this thread: its end completes the audit
      ex.auditDetached = true;
      try {
        upgraded = webSockets.upgrade((req, resp, cb) -> {
          ex.audit.responseStarted(101);
          return new WatchSocket(this, watch, encoder,
              format.encoding() == OutputFormat.Encoding.PROTOBUF, timeout, ex.audit);
        }, ex.request, ex.response, ex.callback);
      } catch (RuntimeException e) {
        ex.auditDetached = false;
        active.remove(watch);
        watch.close();
        throw e;
      }
      if (upgraded) {
        return;
      }
      ex.auditDetached = false;
    }
    ex.request.addFailureListener(t -> watch.close());
    // long silences are normal for a watch: an idle timeout must not fail it
    ex.request.addIdleTimeoutListener(t -> false);
    pump(watch, encoder, new HttpSink(ex, format), timeout, () -> { });
  }

  private static boolean isWebSocket(Exchange ex) {
    String upgrade = ex.request.getHeaders().get(HttpHeader.UPGRADE);
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }

  /** Moves events from the watch to the sink until the deadline or the end of either. */
  private void pump(ApiWatch watch, Encoder encoder, Sink sink, Duration timeout,
      Runnable ended) {
    try {
      Instant deadline = clock.instant().plus(timeout);
      while (!watch.isClosed()) {
        Instant now = clock.instant();
        if (!now.isBefore(deadline)) {
          break;
        }
        Duration wait = Duration.between(now, deadline);
        Optional<ApiWatchEvent> next = watch.poll(wait.compareTo(POLL) < 0 ? wait : POLL);
        if (next.isEmpty()) {
          continue;
        }
        Duration left = Duration.between(clock.instant(), deadline);
        Duration writeWait = left.compareTo(writeTimeout) < 0 ? left : writeTimeout;
        if (writeWait.isNegative() || !sink.send(encoder.encode(next.get()), writeWait)) {
          // the client is gone, stopped reading, or the watch's time ran out mid-write
          sink.abort();
          return;
        }
      }
      sink.finish();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      sink.finish();
    } catch (RuntimeException | Error e) {
      LOG.error("watch stream failed", e);
      sink.abort();
    } finally {
      active.remove(watch);
      watch.close();
      ended.run();
    }
  }

  /**
   * A watch over WebSocket: events as text messages, pumped on a pool thread. Public only
   * because Jetty binds endpoint methods reflectively.
   */
  public static final class WatchSocket implements Session.Listener.AutoDemanding {
    private final WatchStreamer streamer;
    private final ApiWatch watch;
    private final Encoder encoder;
    private final boolean binary;
    private final Duration timeout;
    private final AuditRecorder audit;

    WatchSocket(WatchStreamer streamer, ApiWatch watch, Encoder encoder, boolean binary,
        Duration timeout, AuditRecorder audit) {
      this.streamer = streamer;
      this.watch = watch;
      this.encoder = encoder;
      this.binary = binary;
      this.timeout = timeout;
      this.audit = audit;
    }

    @Override
    public void onWebSocketOpen(Session session) {
      streamer.executor.execute(() -> streamer.pump(watch, encoder, new Sink() {
        @Override
        public boolean send(byte[] event, Duration wait) {
          Callback.Completable done = new Callback.Completable();
          if (binary) {
            // a message is a frame: protobuf events go without their length prefix
            session.sendBinary(ByteBuffer.wrap(event, 4, event.length - 4), done);
          } else {
            // kube frames JSON watch events as text, without the trailing newline
            session.sendText(new String(event, 0, event.length - 1, StandardCharsets.UTF_8),
                done);
          }
          try {
            done.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            return true;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          } catch (Exception e) {
            return false;
          }
        }

        @Override
        public void finish() {
          session.close(StatusCode.NORMAL, null, Callback.NOOP);
        }

        @Override
        public void abort() {
          session.disconnect();
        }
      }, timeout, audit::complete));
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
      watch.close();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
      watch.close();
    }
  }

  /** A watch over HTTP: a chunked 200 response, one event per line. */
  private static final class HttpSink implements Sink {
    private final Exchange ex;

    HttpSink(Exchange ex, OutputFormat format) {
      this.ex = ex;
      ex.audit.responseStarted(200);
      ex.response.setStatus(200);
      // as kube: JSON streams are application/json, others name the stream
      ex.response.getHeaders().put(HttpHeader.CONTENT_TYPE,
          format.encoding() == OutputFormat.Encoding.PROTOBUF
              ? ProtobufBodies.WATCH_MEDIA_TYPE : format.contentType());
      ex.response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, private");
      // an empty write commits the headers, so the client sees the 200 before the first event
      write(BufferUtil.EMPTY_BUFFER, false, DEFAULT_WRITE_TIMEOUT);
    }

    @Override
    public boolean send(byte[] event, Duration wait) {
      return write(ByteBuffer.wrap(event), false, wait);
    }

    @Override
    public void finish() {
      if (write(BufferUtil.EMPTY_BUFFER, true, DEFAULT_WRITE_TIMEOUT)) {
        ex.callback.succeeded();
      } else {
        abort();
      }
    }

    @Override
    public void abort() {
      // a write may still be pending on a client that stopped reading: closing an HTTP/1
      // connection fails it (HTTP/2 resets just this stream when the callback fails), so that
      // nothing waits on this stream any more
      if (ex.request.getConnectionMetaData().getHttpVersion().getVersion() < 20) {
        ex.request.getConnectionMetaData().getConnection().getEndPoint().close();
      }
      ex.callback.failed(new java.io.IOException("watch client went away or stopped reading"));
    }

    private boolean write(ByteBuffer buffer, boolean last, Duration wait) {
      java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
      ex.response.write(last, buffer, org.eclipse.jetty.util.Callback.from(
          () -> done.complete(null), done::completeExceptionally));
      try {
        done.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        return false;
      }
    }
  }

  private Duration timeout(Fields query) {
    String s = query.getValue("timeoutSeconds");
    if (s != null && !s.isEmpty()) {
      long seconds;
      try {
        seconds = Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw StatusErrors.badRequest("strconv.ParseInt: parsing " + Json.quote(s)
            + ": invalid syntax");
      }
      if (seconds > 0) {
        return Duration.ofSeconds(seconds);
      }
    }
    long min = minTimeout.toMillis();
    return Duration.ofMillis(min + ThreadLocalRandom.current().nextLong(Math.max(1, min)));
  }

  /** A bookmark of a Table watch: a Table carrying only the resource version. */
  private static MapValue tableBookmark(MapValue bookmark, OutputFormat format) {
    return MapValue.builder()
        .put("kind", Value.of("Table"))
        .put("apiVersion", Value.of("meta.k8s.io/" + format.metaVersion()))
        .put("metadata", Nested.map(bookmark, "metadata"))
        .put("columnDefinitions", Value.nullValue())
        .put("rows", Value.nullValue())
        .build();
  }

  private static byte[] line(String type, io.apiserver4j.storage.StoredObject object) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    out.writeBytes(("{\"type\":\"" + type + "\",\"object\":").getBytes(
        StandardCharsets.US_ASCII));
    object.writeJson(out, io.apiserver4j.storage.StoredObject.TypeMeta.KEEP);
    out.write('}');
    out.write('\n');
    return out.toByteArray();
  }

  private static byte[] line(String type, Value object) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    out.writeBytes(("{\"type\":\"" + type + "\",\"object\":").getBytes(
        StandardCharsets.US_ASCII));
    Json.write(object, out);
    out.write('}');
    out.write('\n');
    return out.toByteArray();
  }
}
