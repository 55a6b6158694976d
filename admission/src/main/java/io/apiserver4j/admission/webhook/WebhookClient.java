/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

/**
 * The HTTPS client of a webhook {@code clientConfig} ({@code url} or {@code service}, and
 * {@code caBundle}), for webhooks other than admission (CRD conversion): a POST of a JSON
 * review, answered by a JSON review, with the transport and status failures worded as Go's
 * client words them. Admission webhooks call through it too ({@code HttpEndpoint}), so both
 * read answers alike. Thread-safe.
 */
public final class WebhookClient {
  private final URI uri;
  private final HttpClient client;

  WebhookClient(URI uri, HttpClient client) {
    this.uri = uri;
    this.client = client;
  }

  /**
   * The client of {@code clientConfig}.
   *
   * @throws IllegalArgumentException when it names no usable URL or its caBundle holds no
   *     usable certificate
   * @param clientConfig the webhook's {@code clientConfig} ({@code url} or {@code service}, {@code caBundle})
   * @return the client
   */
  public static WebhookClient of(Value clientConfig) {
    URI uri = ConfiguredWebhooks.uri(clientConfig);
    String caBundle = Nested.str(clientConfig, "caBundle");
    return new WebhookClient(uri, HttpEndpoint.client(
        caBundle.isEmpty() ? new byte[0] : Base64.getDecoder().decode(caBundle)));
  }

  /** A failed call; its message is what Go's client reports. */
  public static final class CallException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CallException(String message) {
      super(message);
    }
  }

  /**
   * POSTs {@code review} with kube's {@code ?timeout=}; completes with the JSON answer, or fails
   * with a {@link CallException}.
   *
   * @param review the AdmissionReview to send
   * @param timeout the webhook's timeout
   * @return the pending answer
   */
  public CompletableFuture<Value> post(Value review, Duration timeout) {
    String url = HttpEndpoint.withTimeout(uri.toString(), timeout);
    HttpRequest http = HttpRequest.newBuilder(URI.create(url))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, */*")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.writeBytes(review)))
        .build();
    return client.sendAsync(http, HttpResponse.BodyHandlers.ofByteArray())
        .handle((response, error) -> {
          if (error != null) {
            throw new CallException("Post \"" + url + "\": "
                + HttpEndpoint.goError(uri, HttpEndpoint.unwrap(error)));
          }
          Value body;
          try {
            body = Json.read(response.body());
          } catch (DecodeException e) {
            body = null;
          }
          int code = response.statusCode();
          if (code < 200 || code > 299) {
            throw new CallException(HttpEndpoint.statusError(code, body,
                new String(response.body(), StandardCharsets.UTF_8)));
          }
          if (body == null) {
            throw new CallException("the body of the response from " + url + " is not JSON");
          }
          return body;
        });
  }
}
