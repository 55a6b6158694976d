/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 17, item 5: wire details clients trip on, each as kube-apiserver sends it. */
class WireDetailsTest {
  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<String> send(String method, String path, String contentType, byte[] body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static MapValue json(HttpResponse<String> r) {
    return (MapValue) Json.read(r.body());
  }

  static String str(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v == null ? null : v.toString().replaceAll("^\"|\"$", "");
  }

  @Test
  void jsonResponsesEndWithANewlineAsGosEncoder() throws Exception {
    HttpResponse<String> created = send("POST", "/api/v1/namespaces/default/configmaps",
        "application/json", "{\"metadata\":{\"name\":\"nl\"}}".getBytes(StandardCharsets.UTF_8));
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.body()).endsWith("}\n");
    assertThat(send("GET", "/api/v1/namespaces/default/configmaps/nl", null, null).body())
        .endsWith("}\n");
    assertThat(send("GET", "/api/v1/namespaces/default/configmaps", null, null).body())
        .endsWith("}\n");
    HttpResponse<String> missing = send("GET", "/api/v1/namespaces/default/configmaps/none",
        null, null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).endsWith("}\n");
  }

  /** Writes a raw HTTP/1.1 request and reads the whole answer (the server closes). */
  /**
   * Sends {@code request} on a new connection and returns all the server answers until it ends
   * the connection. As a real client (Go's transport, curl) does, the answer is read while the
   * request is still being written: a server may answer before it has read the whole request (an
   * overlong one gets its 431 at once) and close, which fails the rest of the write with a broken
   * pipe or a reset, but not the answer it already sent.
   */
  static String raw(String request) throws Exception {
    byte[] bytes = request.getBytes(StandardCharsets.ISO_8859_1);
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    Thread writer;
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      OutputStream out = s.getOutputStream();
      writer = new Thread(() -> {
        try {
          out.write(bytes);
          out.flush();
        } catch (IOException e) {
          // the server stopped reading and closed: what it answered is read below
        }
      }, "raw-request-writer");
      writer.start();
      InputStream in = s.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          answer.write(buffer, 0, n);
        }
      } catch (SocketException e) {
        // a reset after the answer ends the connection as a close would; none before it
        if (answer.size() == 0) {
          throw e;
        }
      }
    }
    // closing the socket ends a write still blocked on a server that no longer reads
    writer.join();
    return answer.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void anOverlongRequestLineIsGos431() throws Exception {
    String answer = raw("GET /api/v1/namespaces/default/configmaps?x=" + "a".repeat(2 << 20)
        + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    // Go's net/http: "431 Request Header Fields Too Large", plain text, connection closed
    assertThat(answer).startsWith("HTTP/1.1 431 ");
    assertThat(answer.toLowerCase()).contains("content-type: text/plain; charset=utf-8");
    assertThat(answer).endsWith("\r\n\r\n431 Request Header Fields Too Large");
  }

  @Test
  void overlongHeadersAreGos431() throws Exception {
    String answer = raw("GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\n"
        + "X-Big: " + "b".repeat(2 << 20) + "\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 431 ");
    assertThat(answer.toLowerCase()).contains("content-type: text/plain; charset=utf-8");
    assertThat(answer).endsWith("\r\n\r\n431 Request Header Fields Too Large");
  }

  @Test
  void aMalformedResourceVersionIsKubesError() throws Exception {
    HttpResponse<String> list = send("GET",
        "/api/v1/namespaces/default/configmaps?resourceVersion=abc", null, null);
    assertThat(list.statusCode()).isEqualTo(400);
    assertThat(str(json(list), "reason")).isEqualTo("BadRequest");
    // storage.ValidateListOptions around the versioner's field.Invalid
    assertThat(str(json(list), "message")).isEqualTo("invalid resource version: resourceVersion:"
        + " Invalid value: \\\"abc\\\": strconv.ParseUint: parsing \\\"abc\\\": invalid syntax");
    send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"rv\"}}".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> get = send("GET",
        "/api/v1/namespaces/default/configmaps/rv?resourceVersion=-1", null, null);
    // the watch cache's Get returns the versioner's InvalidError as is: 500, no reason
    assertThat(get.statusCode()).isEqualTo(500);
    assertThat(json(get).getOrNull("reason")).isNull();
    assertThat(str(json(get), "message")).isEqualTo("resourceVersion: Invalid value: \\\"-1\\\":"
        + " strconv.ParseUint: parsing \\\"-1\\\": invalid syntax");
    assertThat(send("GET", "/api/v1/namespaces/default/configmaps?resourceVersion="
        + "18446744073709551616", null, null).body()).contains("value out of range");
    HttpResponse<String> watch = send("GET",
        "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=abc", null, null);
    assertThat(watch.statusCode()).isEqualTo(500);
    assertThat(str(json(watch), "message")).isEqualTo("resourceVersion: Invalid value:"
        + " \\\"abc\\\": strconv.ParseUint: parsing \\\"abc\\\": invalid syntax");
  }

  @Test
  void overlongUtf8InABodyIsReplacedAsGoDecodesIt() throws Exception {
    byte[] body = "{\"metadata\":{\"name\":\"utf\"},\"data\":{\"k\":\"a\u0000b\"}}"
        .getBytes(StandardCharsets.UTF_8);
    // overlong encodings of '/' (C0 AF) and of NUL (E0 80 80) in place of the NUL
    int at = new String(body, StandardCharsets.ISO_8859_1).indexOf('\u0000');
    byte[] poisoned = new byte[body.length + 4];
    System.arraycopy(body, 0, poisoned, 0, at);
    poisoned[at] = (byte) 0xC0;
    poisoned[at + 1] = (byte) 0xAF;
    poisoned[at + 2] = (byte) 0xE0;
    poisoned[at + 3] = (byte) 0x80;
    poisoned[at + 4] = (byte) 0x80;
    System.arraycopy(body, at + 1, poisoned, at + 5, body.length - at - 1);
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps",
        "application/json", poisoned);
    assertThat(r.statusCode()).isEqualTo(201);
    MapValue data = (MapValue) json(r).getOrNull("data");
    assertThat(data.getOrNull("k")).isEqualTo(Value.of("a\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDb"));
  }

  @Test
  void aFutureResourceVersionIsATimeoutAfterWaitingForIt() throws Exception {
    HttpResponse<String> r = send("GET",
        "/api/v1/namespaces/default/configmaps?resourceVersion=999999999", null, null);
    // kube's watch cache blocks 3 s, then: NewTooLargeResourceVersionError(rv, current, 1)
    assertThat(r.statusCode()).isEqualTo(504);
    MapValue status = json(r);
    assertThat(str(status, "reason")).isEqualTo("Timeout");
    assertThat(str(status, "message")).startsWith(
        "Timeout: Too large resource version: 999999999, current: ");
    MapValue details = (MapValue) status.getOrNull("details");
    assertThat(details.getOrNull("retryAfterSeconds")).isEqualTo(Value.of(1L));
    assertThat(details.getOrNull("causes").toString()).contains("ResourceVersionTooLarge");
    assertThat(r.headers().firstValue("Retry-After")).hasValue("1");

    // a GET of one object reads from the same cache: it waits, then the same 504
    send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"future\"}}".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> get = send("GET",
        "/api/v1/namespaces/default/configmaps/future?resourceVersion=999999999", null, null);
    assertThat(get.statusCode()).isEqualTo(504);
    assertThat(str(json(get), "message")).startsWith(
        "Timeout: Too large resource version: 999999999, current: ");
    HttpResponse<String> current = send("GET",
        "/api/v1/namespaces/default/configmaps/future?resourceVersion=1", null, null);
    assertThat(current.statusCode()).isEqualTo(200);
  }
}
