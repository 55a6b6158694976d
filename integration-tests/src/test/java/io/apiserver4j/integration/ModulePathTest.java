/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable server on the module path, as a user who takes the module descriptors at their
 * word runs it: every jar with a {@code module-info.class} on {@code --module-path}, the rest
 * (cel-java, jetcd, gRPC, Netty, protobuf) on the class path, and the {@code --add-reads} that
 * the descriptors of the modules which read the class path ask for. The other tests run on the
 * class path, so only this one shows that the descriptors resolve together, that
 * {@code io.apiserver4j.registry} is found as the {@code BuiltinApi} service without anything
 * requiring it, and that Jetty can bind the WebSocket endpoint of a watch, which lives in a
 * package the http module does not export.
 */
class ModulePathTest {
  private static final Set<String> READ_THE_CLASS_PATH = Set.of(
      "io.apiserver4j.cel", "io.apiserver4j.apiextensions", "io.apiserver4j.storage.etcd");
  private static final Pattern LISTENING = Pattern.compile("listening on .*\\(port (\\d+)\\)");
  /** Marks the end of the server's output (compared by identity). */
  private static final String END_OF_OUTPUT = new String("<end of output>");

  private final HttpClient client = HttpClient.newHttpClient();
  private Process server;

  @AfterEach
  void stopServer() throws InterruptedException {
    if (server != null) {
      server.destroy();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void theServerServesTheBuiltinKindsAndWatchesOverWebSocketOnTheModulePath(@TempDir Path dir)
      throws Exception {
    List<String> modulePath = new ArrayList<>();
    List<String> classPath = new ArrayList<>();
    for (String entry : testClassPath()) {
      Path p = Path.of(entry);
      if (Files.exists(p)) {
        (isExplicitModule(p) ? modulePath : classPath).add(entry);
      }
    }
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", String.join(File.pathSeparator, modulePath),
        "--class-path", String.join(File.pathSeparator, classPath),
        // the class path's libraries need modules that nothing else roots (Guava for cel-java)
        "--add-modules", "ALL-MODULE-PATH"));
    for (String module : READ_THE_CLASS_PATH) {
      command.addAll(List.of("--add-reads", module + "=ALL-UNNAMED"));
    }
    command.addAll(List.of("-m", "io.apiserver4j.server/io.apiserver4j.server.Serve",
        "--secure-port", "0"));
    Path log = dir.resolve("server.log");
    server = new ProcessBuilder(command).redirectError(log.toFile()).start();

    int port = awaitPort(server, log);
    URI base = URI.create("http://127.0.0.1:" + port);

    assertThat(get(base.resolve("/api/v1")))
        .contains("\"name\":\"pods\"", "\"name\":\"configmaps\"");
    assertThat(get(base.resolve("/apis/apps/v1"))).contains("\"name\":\"deployments\"");

    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    WebSocket socket = client.newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + port
            + "/api/v1/namespaces/default/configmaps?watch=true"
            + "&fieldSelector=metadata.name%3Don-the-module-path"), new Collect(events))
        .get(20, TimeUnit.SECONDS);
    try {
      HttpResponse<String> created = client.send(HttpRequest.newBuilder(
              base.resolve("/api/v1/namespaces/default/configmaps"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                  + "\"metadata\":{\"name\":\"on-the-module-path\"}}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String event = events.poll(20, TimeUnit.SECONDS);
      assertThat(event).as("a watch event; server log:%n%s", read(log))
          .contains("\"type\":\"ADDED\"", "on-the-module-path");
    } finally {
      socket.abort();
    }
  }

  private static List<String> testClassPath() {
    String cp = System.getProperty("apiserver4j.test.classpath", "");
    assertThat(cp).as("the system property apiserver4j.test.classpath (set by the pom)")
        .isNotBlank().doesNotContain("${");
    return List.of(cp.split(Pattern.quote(File.pathSeparator)));
  }

  /** A jar or directory with a module-info.class; automatic modules stay on the class path. */
  private static boolean isExplicitModule(Path p) {
    try {
      Set<ModuleReference> found = ModuleFinder.of(p).findAll();
      return found.size() == 1 && !found.stream().map(ModuleReference::descriptor)
          .anyMatch(ModuleDescriptor::isAutomatic);
    } catch (FindException e) {
      // a jar whose automatic name cannot be derived: it can only be on the class path
      return false;
    }
  }

  /** Waits for Serve's "listening on" line and returns its port. */
  private static int awaitPort(Process process, Path log) throws Exception {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended; the caller reports it
      } finally {
        lines.add(END_OF_OUTPUT);
      }
    }, "module-path-server-output");
    reader.setDaemon(true);
    reader.start();
    List<String> seen = new ArrayList<>();
    // waits for the server's "listening" line, or for its output to end (the JVM exited)
    for (String line = lines.take(); line != END_OF_OUTPUT; line = lines.take()) {
      seen.add(line);
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    throw new AssertionError("the server did not start on the module path; output:\n"
        + String.join("\n", seen) + "\nerrors:\n" + read(log));
  }

  private String get(URI uri) throws IOException, InterruptedException {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("GET %s: %s", uri, r.body()).isEqualTo(200);
    return r.body();
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Queues each whole text message. */
  private static final class Collect implements WebSocket.Listener {
    private final BlockingQueue<String> events;
    private final StringBuilder partial = new StringBuilder();

    Collect(BlockingQueue<String> events) {
      this.events = events;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        events.add(partial.toString());
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }
}
