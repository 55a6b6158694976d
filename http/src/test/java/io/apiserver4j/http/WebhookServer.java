/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A real HTTPS admission webhook server (the JDK's {@code HttpsServer} on 127.0.0.1, port 0)
 * with the server certificate of {@link TestCertificates}: each path answers AdmissionReviews
 * with a function and records what it was sent.
 */
public final class WebhookServer implements AutoCloseable {
  private final HttpsServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final String caBundle;
  private final Map<String, Function<MapValue, MapValue>> handlers = new ConcurrentHashMap<>();
  private final Map<String, List<MapValue>> received = new ConcurrentHashMap<>();

  public WebhookServer(TestCertificates certs) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certs.clientKeyStore("server"))) {
      ks.load(in, TestCertificates.password());
    }
    KeyManagerFactory kmf =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, TestCertificates.password());
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ssl));
    server.setExecutor(executor);
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      byte[] body;
      try {
        MapValue review = (MapValue) Json.read(exchange.getRequestBody().readAllBytes());
        received.computeIfAbsent(path, p -> new ArrayList<>());
        synchronized (received) {
          received.get(path).add(review);
        }
        Function<MapValue, MapValue> h = handlers.get(path);
        body = h == null ? null : Json.writeBytes(h.apply(review));
      } catch (RuntimeException e) {
        body = null;
      }
      try {
        if (body == null) {
          exchange.sendResponseHeaders(404, -1);
        } else {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
        }
      } catch (IOException e) {
        // the caller gave up (a timeout test): nothing to answer
      } finally {
        exchange.close();
      }
    });
    server.start();
    caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(certs.caCert));
  }

  /** The URL of {@code path}. */
  public String url(String path) {
    return "https://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** The base64 PEM of the CA that signed the server's certificate. */
  public String caBundle() {
    return caBundle;
  }

  public void handle(String path, Function<MapValue, MapValue> handler) {
    handlers.put(path, handler);
  }

  public List<MapValue> received(String path) {
    synchronized (received) {
      return List.copyOf(received.getOrDefault(path, List.of()));
    }
  }

  public void reset() {
    handlers.clear();
    synchronized (received) {
      received.clear();
    }
  }

  /** An AdmissionReview v1 response to {@code review} with the given response fields. */
  public static MapValue respond(MapValue review, String responseJson) {
    MapValue response = ((MapValue) Json.read(responseJson))
        .with("uid", Value.of(Nested.str(review, "request", "uid")));
    return MapValue.ofEntries("apiVersion", review.getOrNull("apiVersion"),
        "kind", Value.of("AdmissionReview"), "response", response);
  }

  public static MapValue allow(MapValue review) {
    return respond(review, "{\"allowed\": true}");
  }

  /** A JSON patch response; the patch is base64-encoded as on the wire. */
  public static MapValue patch(MapValue review, String jsonPatch) {
    return respond(review, "{\"allowed\": true, \"patchType\": \"JSONPatch\", \"patch\": \""
        + Base64.getEncoder().encodeToString(jsonPatch.getBytes(
            java.nio.charset.StandardCharsets.UTF_8)) + "\"}");
  }

  public static MapValue request(MapValue review) {
    return Nested.map(review, "request");
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
