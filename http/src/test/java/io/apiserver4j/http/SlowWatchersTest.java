/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiserver4j.apiserver.ApiServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 2: a watch whose client stops reading does not pin a server thread. The client
 * here is a real TCP connection that sends the watch request and never reads.
 */
class SlowWatchersTest {
  private ApiServer api;
  private HttpApiServer http;
  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    if (api != null) {
      api.close();
    }
  }

  private URI start(HttpApiServer.Builder b) {
    http = b.build();
    http.start();
    return http.url();
  }

  private void put(URI base, String name, int i, String payload) throws Exception {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
        + "\"},\"data\":{\"i\":\"" + i + "\",\"big\":\"" + payload + "\"}}";
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(
        base.resolve("/api/v1/namespaces/default/configmaps/" + name + "?fieldManager=t"))
        .header("Content-Type", "application/apply-patch+yaml")
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
  }

  /** Opens a watch on a connection that never reads, with a tiny receive window. */
  private Socket stalledWatch(URI base, String query) throws Exception {
    Socket s = new Socket();
    s.setReceiveBufferSize(1024);
    s.connect(new InetSocketAddress(base.getHost(), base.getPort()));
    s.getOutputStream().write(("GET /api/v1/namespaces/default/configmaps?watch=true" + query
        + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  /**
   * Reads the watch response's status line: the watch is being served. The client stops
   * reading after it.
   */
  private static void awaitWatchOpen(Socket s) throws Exception {
    s.setSoTimeout(30_000);
    InputStream in = s.getInputStream();
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
      line.append((char) c);
    }
    assertThat(line.toString()).startsWith("HTTP/1.1 200");
  }

  /** Waits until the server has ended every watch (it cut the stalled one). */
  private void awaitNoActiveWatch() {
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      while (http.activeWatches() != 0) {
        Thread.onSpinWait();
      }
    }, "the server still streams to the stalled watcher");
  }

  /** Fills the connection: 32 events of 512 KiB, far beyond any socket buffer. */
  private void flood(URI base) throws Exception {
    String payload = "x".repeat(512 * 1024);
    for (int i = 0; i < 32; i++) {
      put(base, "big", i, payload);
    }
  }

  /**
   * Drains what the server had sent until it ended the stream: by closing the connection (a
   * write was pending) or, when every write had completed before the watch's time ran out, by
   * the chunked response's last chunk on a connection HTTP/1.1 keeps open.
   */
  private static void assertClosedByServer(Socket s) throws Exception {
    s.setSoTimeout(60_000);
    InputStream in = s.getInputStream();
    byte[] buf = new byte[64 * 1024];
    byte[] end = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    byte[] tail = new byte[end.length];
    for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
      int keep = Math.min(n, tail.length);
      System.arraycopy(tail, keep, tail, 0, tail.length - keep);
      System.arraycopy(buf, n - keep, tail, tail.length - keep, keep);
      if (java.util.Arrays.equals(tail, end)) {
        return;
      }
    }
  }

  @Test
  void aWatcherThatStopsReadingIsCutAfterTheWriteTimeout() throws Exception {
    api = ApiServer.builder().build();
    URI base = start(HttpApiServer.builder(api).watchWriteTimeout(Duration.ofSeconds(1)));
    try (Socket stalled = stalledWatch(base, "")) {
      awaitWatchOpen(stalled);
      flood(base);
      awaitNoActiveWatch();
      assertClosedByServer(stalled);
    }
    // the server still serves watches and writes
    put(base, "after", 0, "y");
  }

  @Test
  void timeoutSecondsIsHonouredWhileAWriteIsBlocked() throws Exception {
    api = ApiServer.builder().build();
    URI base = start(HttpApiServer.builder(api).watchWriteTimeout(Duration.ofHours(1)));
    try (Socket stalled = stalledWatch(base, "&timeoutSeconds=2")) {
      awaitWatchOpen(stalled);
      flood(base);
      awaitNoActiveWatch();
      assertClosedByServer(stalled);
    }
  }
}
