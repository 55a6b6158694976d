/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;

/**
 * A load generator's HTTP/1.1 client on Jetty's {@link HttpClient}: one shared client with a
 * keep-alive connection per concurrent sender. The load benchmarks run their clients in the
 * server's JVM, on the same few cores; {@code java.net.http} spends well over 100 µs of CPU per
 * request (selector thread, executor hand-offs), which the server then does not get. Jetty's
 * client costs less, so more of the CPU goes to the server, as with kube's Go load generators in
 * their own processes.
 */
final class JettyLoadClient implements AutoCloseable {
  /** A response: status code and body. */
  record Response(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final URI base;
  private final HttpClient client = new HttpClient();

  JettyLoadClient(URI base, int connections) {
    this.base = base;
    client.setMaxConnectionsPerDestination(connections);
    client.setFollowRedirects(false);
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("starting Jetty's HTTP client", e);
    }
  }

  Response get(String pathAndQuery) {
    return send("GET", pathAndQuery, null, null);
  }

  Response send(String method, String pathAndQuery, String contentType, byte[] body) {
    Request request = client.newRequest(base.resolve(pathAndQuery)).method(method)
        .headers(h -> h.put(HttpHeader.ACCEPT, "application/json"));
    if (body != null) {
      request.body(new BytesRequestContent(contentType, body));
    }
    try {
      ContentResponse r = request.send();
      return new Response(r.getStatus(), r.getContent());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + " " + pathAndQuery + " interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(method + " " + base.resolve(pathAndQuery), e);
    }
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping Jetty's HTTP client", e);
    }
  }
}
