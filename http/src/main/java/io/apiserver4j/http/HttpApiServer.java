/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.kubeapi.ProtobufCodec;
import io.apiserver4j.authz.Auditor;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.authz.NonResourceDocument;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.internal.ApiHandler;
import io.apiserver4j.http.internal.RequestMetrics;
import io.apiserver4j.http.internal.Backend;
import io.apiserver4j.http.internal.FacadeBackend;
import io.apiserver4j.http.internal.GoErrorHandler;
import io.apiserver4j.http.internal.Pem;
import io.apiserver4j.http.internal.ServerSettings;
import io.apiserver4j.http.internal.WatchStreamer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes REST API of an {@link ApiServer} over HTTP, on Jetty: HTTP/1.1 and HTTP/2
 * (h2c in clear text, h2 over TLS via ALPN), discovery (aggregated and legacy), OpenAPI v3,
 * JSON and YAML, tables, watches, authentication and authorization. kubectl and the Java
 * Kubernetes clients talk to it unchanged.
 *
 * <pre>{@code
 * HttpApiServer http = HttpApiServer.builder(apiServer).port(8080).build();
 * int port = http.start();
 * ...
 * http.close();   // graceful: in-flight requests finish, watches end
 * }</pre>
 *
 * <p>Binds to 127.0.0.1 unless told otherwise. Without an {@link Authenticator} every request
 * runs as {@code system:unsecured} (group {@code system:masters}), like kube-apiserver's old
 * insecure port; such a server refuses to bind anything but a loopback address.
 *
 * <p>Observability as kube-apiserver's: {@code /metrics} serves {@code apiserver_request_total},
 * {@code apiserver_request_duration_seconds} and {@code apiserver_storage_objects} in the
 * Prometheus text format (a non-resource URL, authorized as such); each request ends with one
 * line in kube's {@code httplog} form on the SLF4J logger {@code io.apiserver4j.http.httplog}
 * at DEBUG; start-up logs one INFO line with the address and the storage. Jetty logs through
 * SLF4J under {@code org.eclipse.jetty}: set that logger to WARN to keep its start-up lines out.
 *
 * <p>Thread-safe. {@link #start()} once; {@link #close()} is idempotent.
 */
public final class HttpApiServer implements AutoCloseable {
  /** kube-apiserver's default request body limit (3 MiB). */
  public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 3L * 1024 * 1024;

  private static final UserInfo UNSECURED = new UserInfo("system:unsecured", "",
      List.of("system:masters", "system:authenticated"), Map.of());

  private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);

  private final Builder config;
  private final Backend backend;
  private final RequestMetrics metrics = new RequestMetrics();
  private Server server;
  private ServerConnector connector;
  private ApiHandler handler;
  private WatchStreamer watches;
  private ScheduledExecutorService timers;
  private boolean started;
  private boolean closed;
  private int boundPort;

  private HttpApiServer(Builder b) {
    this.config = b;
    this.backend = b.backend;
  }

  /** The number of watches being streamed to clients now. */
  public synchronized int activeWatches() {
    return watches == null ? 0 : watches.activeCount();
  }

  /**
   * Builds, without binding or starting, the Jetty server a plain-HTTP {@link #start()} builds,
   * and drops it: the first start in a JVM then finds Jetty's static tables (MIME types, which
   * list the JDK's locales; HTTP/2's header tables) ready. A test kit calls it on a background
   * thread while the first {@link ApiServer} builds; calling it is never needed.
   */
  public static void prepare() {
    Server server = new Server(new QueuedThreadPool(1, 1));
    HttpConfiguration http = new HttpConfiguration();
    new ServerConnector(server, new HttpConnectionFactory(http),
        new HTTP2CServerConnectionFactory(http));
    ServerWebSocketContainer.ensure(server);
  }

  /** A builder serving {@code apiServer}. */
  public static Builder builder(ApiServer apiServer) {
    return new Builder(new FacadeBackend(requireNonNull(apiServer, "apiServer")));
  }

  /**
   * Binds and starts serving.
   *
   * @return the bound port (useful with {@code port(0)})
   * @throws IllegalStateException if already started or closed
   * @throws UncheckedIOException if the port cannot be bound or the TLS files cannot be read
   */
  public synchronized int start() {
    if (started || closed) {
      throw new IllegalStateException(started ? "already started" : "closed");
    }
    started = true;
    QueuedThreadPool pool = new QueuedThreadPool(config.maxThreads, 8);
    pool.setName("apiserver4j-http");
    pool.setDaemon(true);
    server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(64 * 1024);
    HttpConnectionFactory h1 = new HttpConnectionFactory(http);
    if (config.tls.isPresent()) {
      http.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
      HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
      ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
      alpn.setDefaultProtocol(h1.getProtocol());
      SslConnectionFactory ssl = new SslConnectionFactory(sslContextFactory(config.tls.get()),
          alpn.getProtocol());
      connector = new ServerConnector(server, ssl, alpn, h2, h1);
    } else {
      connector = new ServerConnector(server, h1, new HTTP2CServerConnectionFactory(http));
    }
    connector.setHost(config.host);
    connector.setPort(config.port);
    connector.setIdleTimeout(config.idleTimeout.toMillis());
    server.addConnector(connector);

    ScheduledThreadPoolExecutor timeouts = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "apiserver4j-http-timeouts");
      t.setDaemon(true);
      return t;
    });
    // every request schedules its timeout and cancels it when it ends: cancelled timeouts leave
    // the queue at once instead of piling up (each holding its exchange) until they are due
    timeouts.setRemoveOnCancelPolicy(true);
    timers = timeouts;
    ServerWebSocketContainer webSockets = ServerWebSocketContainer.ensure(server);
    // a watch may stay silent for as long as it lasts
    webSockets.setIdleTimeout(config.minWatchTimeout.multipliedBy(2).plusMinutes(1));
    watches = new WatchStreamer(config.clock, config.minWatchTimeout, pool, webSockets,
        config.watchWriteTimeout, ProtobufCodec.builtIn(backend.kubernetesVersion()));
    ServerSettings settings = new ServerSettings(config.authenticator, config.anonymous,
        config.authorizer, UNSECURED, config.maxRequestBodyBytes, config.requestTimeout,
        config.minWatchTimeout, config.clock, config.gitVersion, Map.copyOf(config.documents),
        config.auditor);
    handler = new ApiHandler(backend, settings, timers, watches, metrics);
    server.setHandler(new GracefulHandler(handler));
    server.setErrorHandler(new GoErrorHandler());
    server.setStopTimeout(config.shutdownTimeout.toMillis());
    try {
      server.start();
    } catch (Exception e) {
      closeQuietly();
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot bind " + config.host + ":" + config.port, io);
      }
      throw new IllegalStateException("cannot start the HTTP server: " + e.getMessage(), e);
    }
    boundPort = connector.getLocalPort();
    LOG.info("apiserver4j serving on {} ({}), storage: {}", url(),
        config.authenticator.isPresent() ? "authenticating" : "every request as system:unsecured",
        backend.storageDescription());
    return boundPort;
  }

  private SslContextFactory.Server sslContextFactory(TlsOptions tls) {
    char[] password = "apiserver4j".toCharArray();
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    try {
      KeyStore keys = Pem.keyStore(Files.readString(tls.certificateChain()),
          Files.readString(tls.privateKey()), password);
      ssl.setKeyStore(keys);
      ssl.setKeyStorePassword(new String(password));
      if (tls.clientCa().isPresent()) {
        ssl.setTrustStore(Pem.trustStore(Files.readString(tls.clientCa().get())));
        ssl.setWantClientAuth(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read TLS files", e);
    }
    ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
    return ssl;
  }

  /**
   * The port the server was bound to (still answered after {@link #close()}).
   *
   * @throws IllegalStateException before {@link #start()}
   */
  public synchronized int port() {
    if (!started) {
      throw new IllegalStateException("not started");
    }
    return boundPort;
  }

  /** The base URL clients use, e.g. {@code http://127.0.0.1:8080}. */
  public URI url() {
    String host = config.host.equals("0.0.0.0") || config.host.equals("::") ? "127.0.0.1"
        : config.host;
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create((config.tls.isPresent() ? "https" : "http") + "://" + host + ":" + port());
  }

  /** A kubeconfig builder pointing at {@link #url()}; add credentials as needed. */
  public Kubeconfig.Builder kubeconfig() {
    return Kubeconfig.builder(url());
  }

  /** Whether TLS is on. */
  public boolean secure() {
    return config.tls.isPresent();
  }

  /**
   * Stops gracefully: readiness fails, watches end (their clients see the stream close),
   * in-flight requests get up to the shutdown timeout to finish, then the port is released.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (handler != null) {
      handler.beginShutdown();
    }
    if (watches != null) {
      watches.closeAll();
    }
    closeQuietly();
  }

  private void closeQuietly() {
    try {
      if (server != null) {
        server.stop();
      }
    } catch (Exception e) {
      // stopping is best effort: the port is released even when a request would not finish
    } finally {
      if (timers != null) {
        timers.shutdownNow();
      }
    }
  }

  /** Mutable builder of {@link HttpApiServer}; not thread-safe. */
  public static final class Builder {
    private final Backend backend;
    private String host = "127.0.0.1";
    private int port = 0;
    private Optional<TlsOptions> tls = Optional.empty();
    private Optional<Authenticator> authenticator = Optional.empty();
    private boolean anonymous;
    private Authorizer authorizer = Authorizer.allowAll();
    private Auditor auditor = Auditor.none();
    private long maxRequestBodyBytes = DEFAULT_MAX_REQUEST_BODY_BYTES;
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration minWatchTimeout = Duration.ofMinutes(30);
    private Duration watchWriteTimeout = WatchStreamer.DEFAULT_WRITE_TIMEOUT;
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private Duration idleTimeout = Duration.ofMinutes(5);
    private Clock clock = Clock.systemUTC();
    private String gitVersion = "v1.36.0";
    private int maxThreads = 400;
    private final Map<String, java.util.function.Function<URI, NonResourceDocument>> documents =
        new java.util.LinkedHashMap<>();

    private Builder(Backend backend) {
      this.backend = backend;
    }

    /**
     * Serves GET {@code path} (a non-resource URL, authorized as one) with the document
     * {@code document} computes from the server's base URL, as kube-apiserver serves
     * {@code /.well-known/openid-configuration} and {@code /openid/v1/jwks}.
     *
     * @throws IllegalArgumentException if {@code path} is not absolute or already served
     */
    public Builder nonResourceDocument(String path,
        java.util.function.Function<URI, NonResourceDocument> document) {
      requireNonNull(path, "path");
      requireNonNull(document, "document");
      if (!path.startsWith("/") || path.startsWith("/api/") || path.startsWith("/apis/")
          || path.equals("/api") || path.equals("/apis") || documents.containsKey(path)) {
        throw new IllegalArgumentException("cannot serve a document at " + path);
      }
      documents.put(path, document);
      return this;
    }

    /**
     * Serves each of {@code documents} as {@link #nonResourceDocument} does, e.g. the service
     * account issuer discovery of {@code ServiceAccountTokens.discoveryDocuments()}.
     *
     * @throws IllegalArgumentException if a path is not absolute or already served
     */
    public Builder nonResourceDocuments(
        Map<String, java.util.function.Function<URI, NonResourceDocument>> documents) {
      requireNonNull(documents, "documents").forEach(this::nonResourceDocument);
      return this;
    }

    /** The address to bind; default {@code 127.0.0.1}. */
    public Builder host(String h) {
      this.host = requireNonNull(h, "host");
      return this;
    }

    /** The port; 0 (the default) picks a free one, which {@link #start()} returns. */
    public Builder port(int p) {
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("port out of range: " + p);
      }
      this.port = p;
      return this;
    }

    public Builder tls(TlsOptions options) {
      this.tls = Optional.of(requireNonNull(options, "options"));
      return this;
    }

    /** Who the requests are from; without one, only loopback addresses may be bound. */
    public Builder authenticator(Authenticator a) {
      this.authenticator = Optional.of(requireNonNull(a, "authenticator"));
      return this;
    }

    /**
     * Whether a request without credentials runs as {@code system:anonymous} (group
     * {@code system:unauthenticated}) instead of being refused with 401; default false.
     */
    public Builder anonymous(boolean allow) {
      this.anonymous = allow;
      return this;
    }

    public Builder authorizer(Authorizer a) {
      this.authorizer = requireNonNull(a, "authorizer");
      return this;
    }

    /**
     * Audits every request as kube-apiserver's audit filter (policy, events, sinks: see
     * {@code io.apiserver4j.auth.audit.Audit}); default none. Every response carries its
     * {@code Audit-Id} header either way.
     */
    public Builder auditor(Auditor a) {
      this.auditor = requireNonNull(a, "auditor");
      return this;
    }

    /** Larger bodies are refused with 413; 0 means no limit. Default 3 MiB. */
    public Builder maxRequestBodyBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxRequestBodyBytes must not be negative: " + bytes);
      }
      this.maxRequestBodyBytes = bytes;
      return this;
    }

    /**
     * The default and longest duration of a non-watch request (kube's
     * {@code --request-timeout}, 60s); writes are further capped at 34s.
     */
    public Builder requestTimeout(Duration d) {
      this.requestTimeout = positive(d, "requestTimeout");
      return this;
    }

    /** kube's {@code --min-request-timeout} for watches without {@code timeoutSeconds}. */
    /**
     * How long one watch event may take to reach a client (default 10 s). A client that stops
     * reading has its connection closed after this, and its server thread freed.
     */
    public Builder watchWriteTimeout(Duration d) {
      this.watchWriteTimeout = positive(d, "watchWriteTimeout");
      return this;
    }

    public Builder minWatchTimeout(Duration d) {
      this.minWatchTimeout = positive(d, "minWatchTimeout");
      return this;
    }

    /** How long {@link HttpApiServer#close()} waits for in-flight requests; default 10s. */
    public Builder shutdownTimeout(Duration d) {
      this.shutdownTimeout = requireNonNull(d, "shutdownTimeout");
      return this;
    }

    /** How long an idle keep-alive connection stays open; default 5 minutes. */
    public Builder idleTimeout(Duration d) {
      this.idleTimeout = positive(d, "idleTimeout");
      return this;
    }

    /** The clock of table AGE cells and watch deadlines. */
    public Builder clock(Clock c) {
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /**
     * The version {@code /version} reports; default {@code v1.36.0}, the release whose API the
     * server serves. Its minor version selects the kubectl a version-dispatching kubectl runs.
     */
    public Builder gitVersion(String v) {
      requireNonNull(v, "gitVersion");
      if (!v.matches("v\\d+\\.\\d+\\.\\d+.*")) {
        throw new IllegalArgumentException("gitVersion must look like v1.36.0: " + v);
      }
      this.gitVersion = v;
      return this;
    }

    /** The most request threads (watches hold one each); default 400. */
    public Builder maxThreads(int n) {
      if (n < 16) {
        throw new IllegalArgumentException("maxThreads must be at least 16: " + n);
      }
      this.maxThreads = n;
      return this;
    }

    /**
     * @throws IllegalStateException if no authenticator is set and the host is not a loopback
     *     address
     */
    public HttpApiServer build() {
      if (authenticator.isEmpty() && !isLoopback(host)) {
        throw new IllegalStateException("refusing to serve " + host + " without authentication:"
            + " set an authenticator or bind a loopback address");
      }
      if (anonymous && authenticator.isEmpty()) {
        throw new IllegalStateException("anonymous(true) needs an authenticator");
      }
      return new HttpApiServer(this);
    }

    /** {@link #build()} and {@link HttpApiServer#start()}. */
    public HttpApiServer start() {
      HttpApiServer s = build();
      s.start();
      return s;
    }

    private static boolean isLoopback(String host) {
      try {
        for (InetAddress a : InetAddress.getAllByName(host)) {
          if (!a.isLoopbackAddress()) {
            return false;
          }
        }
        return true;
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("unknown host: " + host, e);
      }
    }

    private static Duration positive(Duration d, String what) {
      requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive: " + d);
      }
      return d;
    }
  }
}
