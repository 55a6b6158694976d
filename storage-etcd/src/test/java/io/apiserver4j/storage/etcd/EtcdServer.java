/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, single-member etcd for tests: the {@code etcd} binary (Debian package
 * {@code etcd-server}) started as a child process on free loopback ports with its own temporary
 * data directory.
 *
 * <p>The server can be {@linkplain #stop() stopped} (SIGTERM) or {@linkplain #kill() killed}
 * (SIGKILL) and {@linkplain #restart() restarted} on the same ports and data directory, which is
 * what fault tests need: clients keep their endpoint and the data survives. {@link #close()}
 * stops the process and deletes the data directory; a JVM shutdown hook does the same for
 * servers a test forgot to close.
 *
 * <p>The binary is looked up in the system property {@code apiserver4j.etcd}, the environment
 * variable {@code ETCD_BINARY}, then {@code PATH}. When there is none, {@link #start()} throws
 * {@link IllegalStateException} naming the package to install, so tests fail instead of
 * silently skipping. The data directory lives under {@code /dev/shm} when that is writable
 * (etcd fsyncs every commit; on tmpfs that costs nothing), else under {@code java.io.tmpdir};
 * the system property {@code apiserver4j.etcd.dataRoot} overrides it.
 *
 * <p>Not thread-safe: one test thread controls a server, though clients may use it from any
 * thread.
 */
public final class EtcdServer implements AutoCloseable {
  private static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
  private static final Set<EtcdServer> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (EtcdServer s : List.copyOf(LIVE)) {
        s.close();
      }
    }, "etcd-server-cleanup"));
  }

  private final Path binary;
  private final Path dataRoot;
  private final Path dataDir;
  private final Path logFile;
  private final String name;
  private final int clientPort;
  private final int peerPort;
  private final Duration progressNotifyInterval;
  private final Duration startupTimeout;
  private final HttpClient http;
  private Process process;
  private boolean closed;

  private EtcdServer(Builder b, Path binary, int clientPort, int peerPort) throws IOException {
    this.binary = binary;
    this.dataRoot = Files.createTempDirectory(b.dataRoot, "apiserver4j-etcd-");
    this.dataDir = dataRoot.resolve("data");
    this.logFile = dataRoot.resolve("etcd.log");
    this.name = "apiserver4j-test";
    this.clientPort = clientPort;
    this.peerPort = peerPort;
    this.progressNotifyInterval = b.progressNotifyInterval;
    this.startupTimeout = b.startupTimeout;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  }

  /** Starts a server with default settings and waits until it is healthy. */
  public static EtcdServer start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The client URL, e.g. {@code http://127.0.0.1:43521}. */
  public String clientUrl() {
    return "http://127.0.0.1:" + clientPort;
  }

  /** The client endpoint as a URI, for {@code EtcdStore.Builder#endpoints}. */
  public URI clientUri() {
    return URI.create(clientUrl());
  }

  public int clientPort() {
    return clientPort;
  }

  public int peerPort() {
    return peerPort;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** Whether the etcd process is alive (it may not be healthy yet). */
  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Stops etcd gracefully (SIGTERM), keeping ports and data for {@link #restart()}. */
  public void stop() {
    checkOpen();
    terminate(false);
  }

  /** Kills etcd (SIGKILL), as a crash would; data written so far survives (etcd fsyncs). */
  public void kill() {
    checkOpen();
    terminate(true);
  }

  /** Starts etcd again on the same ports and data directory and waits until it is healthy. */
  public void restart() {
    checkOpen();
    if (isRunning()) {
      throw new IllegalStateException("etcd is still running; stop() or kill() it first");
    }
    launch();
  }

  /** Stops etcd and deletes its data directory. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    LIVE.remove(this);
    terminate(true);
    deleteRecursively(dataRoot);
  }

  /** The tail of etcd's log, for failure messages. */
  public String logTail(int lines) {
    try {
      if (!Files.exists(logFile)) {
        return "";
      }
      List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + logFile + ": " + e.getMessage() + ")";
    }
  }

  @Override
  public String toString() {
    return "EtcdServer{" + clientUrl() + ", data=" + dataDir + (isRunning() ? "" : ", stopped")
        + "}";
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("etcd server is closed");
    }
  }

  private void launch() {
    String peerUrl = "http://127.0.0.1:" + peerPort;
    List<String> command = new ArrayList<>(List.of(binary.toString(),
        "--name", name,
        "--data-dir", dataDir.toString(),
        "--listen-client-urls", clientUrl(),
        "--advertise-client-urls", clientUrl(),
        "--listen-peer-urls", peerUrl,
        "--initial-advertise-peer-urls", peerUrl,
        "--initial-cluster", name + "=" + peerUrl,
        "--initial-cluster-state", "new",
        "--initial-cluster-token", dataRoot.getFileName().toString(),
        "--logger", "zap",
        "--log-outputs", "stderr"));
    if (progressNotifyInterval != null) {
      command.add("--experimental-watch-progress-notify-interval");
      command.add(progressNotifyInterval.toMillis() + "ms");
    }
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    unsupportedArch().ifPresent(arch -> pb.environment().put("ETCD_UNSUPPORTED_ARCH", arch));
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + binary + ": " + e.getMessage(), e);
    }
    awaitHealthy();
  }

  private void awaitHealthy() {
    long deadline = System.nanoTime() + startupTimeout.toNanos();
    HttpRequest request = HttpRequest.newBuilder(URI.create(clientUrl() + "/health"))
        .timeout(Duration.ofSeconds(1)).GET().build();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("etcd exited with code " + process.exitValue()
            + " during startup; log:\n" + logTail(30));
      }
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200 && response.body().contains("\"true\"")) {
          return;
        }
        last = response.statusCode() + " " + response.body();
      } catch (IOException e) {
        last = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        terminate(true);
        throw new IllegalStateException("interrupted while waiting for etcd", e);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        terminate(true);
        throw new IllegalStateException("interrupted while waiting for etcd", e);
      }
    }
    terminate(true);
    throw new IllegalStateException("etcd did not become healthy within " + startupTimeout
        + " (last health answer: " + last + "); log:\n" + logTail(30));
  }

  private void terminate(boolean forcibly) {
    Process p = process;
    if (p == null || !p.isAlive()) {
      return;
    }
    if (forcibly) {
      p.destroyForcibly();
    } else {
      p.destroy();
    }
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
  }

  private static Optional<String> unsupportedArch() {
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86_64":
        return Optional.empty();
      case "aarch64":
        return Optional.of("arm64");
      default:
        return Optional.of(arch);
    }
  }

  /** Where the etcd binary is, or empty. */
  static Optional<Path> findBinary() {
    String configured = System.getProperty("apiserver4j.etcd", System.getenv("ETCD_BINARY"));
    if (configured != null && !configured.isBlank()) {
      Path p = Paths.get(configured);
      return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv("PATH");
    List<String> dirs = new ArrayList<>();
    if (path != null) {
      dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
    }
    dirs.addAll(List.of("/usr/bin", "/usr/local/bin", "/usr/sbin"));
    for (String dir : dirs) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Paths.get(dir, "etcd");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free loopback port", e);
    }
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // best effort: a leftover temp file must not fail a test run
        }
      });
    } catch (IOException e) {
      // best effort, as above
    }
  }

  /** Options for a test server. */
  public static final class Builder {
    private Path dataRoot = defaultDataRoot();
    private Duration progressNotifyInterval;
    private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;

    private Builder() {}

    /** The directory under which the server's temporary directory is created. */
    public Builder dataRoot(Path root) {
      this.dataRoot = requireNonNull(root, "root");
      return this;
    }

    /**
     * etcd's periodic watch progress notification interval (etcd's default is 10 minutes); a
     * short one makes idle watches report progress quickly.
     */
    public Builder progressNotifyInterval(Duration interval) {
      requireNonNull(interval, "interval");
      if (interval.toMillis() <= 0) {
        throw new IllegalArgumentException("progressNotifyInterval must be positive: " + interval);
      }
      this.progressNotifyInterval = interval;
      return this;
    }

    public Builder startupTimeout(Duration timeout) {
      requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("startupTimeout must be positive: " + timeout);
      }
      this.startupTimeout = timeout;
      return this;
    }

    /**
     * Starts the server and waits until it answers {@code /health}.
     *
     * @throws IllegalStateException if the etcd binary is missing or etcd does not come up
     */
    public EtcdServer start() {
      Path binary = findBinary().orElseThrow(() -> new IllegalStateException(
          "etcd binary not found (looked at -Dapiserver4j.etcd, $ETCD_BINARY and PATH). Install"
              + " it with 'apt-get install etcd-server' (scripts/test does so when it is missing)"
              + " or point -Dapiserver4j.etcd at an etcd 3.4+ binary."));
      IllegalStateException last = null;
      // a port found free can be taken by someone else before etcd binds it: retry a few times
      for (int attempt = 0; attempt < 3; attempt++) {
        EtcdServer server;
        try {
          server = new EtcdServer(this, binary, freePort(), freePort());
        } catch (IOException e) {
          throw new UncheckedIOException("cannot create the etcd data directory", e);
        }
        try {
          server.launch();
          LIVE.add(server);
          return server;
        } catch (IllegalStateException e) {
          server.close();
          last = e;
          if (!e.getMessage().contains("address already in use")) {
            throw e;
          }
        }
      }
      throw last;
    }

    private static Path defaultDataRoot() {
      String configured = System.getProperty("apiserver4j.etcd.dataRoot");
      if (configured != null && !configured.isBlank()) {
        return Paths.get(configured);
      }
      Path shm = Paths.get("/dev/shm");
      if (Files.isDirectory(shm) && Files.isWritable(shm)) {
        return shm;
      }
      return Paths.get(System.getProperty("java.io.tmpdir"));
    }
  }
}
