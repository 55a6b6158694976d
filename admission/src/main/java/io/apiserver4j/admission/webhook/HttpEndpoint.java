/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathBuilderException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

/**
 * A webhook behind an HTTPS URL, called as kube-apiserver calls it: a POST of the JSON
 * AdmissionReview to the URL with {@code ?timeout=<n>s} appended, trusting the configuration's
 * {@code caBundle} (or the JVM's default trust when there is none), giving up after the
 * webhook's timeout. Failures read as Go's client reports them
 * ({@code Post "<url>": context deadline exceeded}, {@code dial tcp <host:port>: connect:
 * connection refused}, ...). Thread-safe.
 */
final class HttpEndpoint implements WebhookEndpoint {
  private final WebhookClient client;

  HttpEndpoint(URI uri, HttpClient client) {
    this.client = new WebhookClient(uri, client);
  }

  /**
   * A client trusting the PEM certificates of {@code caBundle} (decoded from base64), or the
   * JVM's default trust when it is empty.
   *
   * @throws IllegalArgumentException when the bundle holds no usable certificate
   */
  static HttpClient client(byte[] caBundle) {
    HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NEVER);
    if (caBundle.length > 0) {
      b.sslContext(trusting(caBundle));
    }
    return b.build();
  }

  private static SSLContext trusting(byte[] pem) {
    try {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem));
      if (certs.isEmpty()) {
        throw new IllegalArgumentException("caBundle holds no certificate");
      }
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate c : certs) {
        trust.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("caBundle is not usable: " + e.getMessage(), e);
    }
  }

  @Override
  public CompletableFuture<AdmissionReviewResponse> call(AdmissionReviewRequest request,
      String version, boolean mutating, Duration timeout) {
    // the POST and the reading of its answer are the conversion webhooks' (WebhookClient), so
    // both kinds of webhook fail with the same texts; here they get admission's prefix
    return client.post(request.toValue(version), timeout)
        .handle((body, error) -> {
          if (error != null) {
            Throwable cause = unwrap(error);
            if (cause instanceof WebhookClient.CallException failed) {
              throw new WebhookCallException("failed to call webhook", failed.getMessage());
            }
            throw error instanceof CompletionException c ? c : new CompletionException(error);
          }
          return AdmissionReviewResponse.fromValue(body, version, mutating,
              Optional.of(request.uid()));
        });
  }

  /** What client-go makes of an error status: the Status's message, or a generic text. */
  static String statusError(int code, Value body, String text) {
    if (body instanceof MapValue m && "Status".equals(Nested.str(m, "kind"))
        && !Nested.str(m, "message").isEmpty()) {
      return Nested.str(m, "message");
    }
    switch (code) {
      case 401: return "Unauthorized";
      case 403: return "Forbidden";
      case 404: return "the server could not find the requested resource";
      default:
        return "an error on the server (\"" + text.trim() + "\") has prevented the request from"
            + " succeeding";
    }
  }

  /** kube's {@code ?timeout=}: the deadline in whole seconds, rounded up, as a Go duration. */
  static String withTimeout(String url, Duration timeout) {
    long seconds = timeout.getSeconds() + (timeout.getNano() > 0 ? 1 : 0);
    return url + (url.contains("?") ? "&" : "?") + "timeout=" + seconds + "s";
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** A Java network failure as Go's HTTP client words it. */
  static String goError(URI uri, Throwable t) {
    String hostPort = uri.getHost() + ":" + (uri.getPort() < 0 ? 443 : uri.getPort());
    if (t instanceof HttpTimeoutException) {
      return "context deadline exceeded";
    }
    if (t instanceof ConnectException) {
      return "dial tcp " + hostPort + ": connect: connection refused";
    }
    if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
      return "dial tcp: lookup " + uri.getHost() + ": no such host";
    }
    if (t instanceof SSLHandshakeException) {
      for (Throwable c = t; c != null; c = c.getCause()) {
        if (c instanceof CertPathBuilderException) {
          return "tls: failed to verify certificate: x509: certificate signed by unknown"
              + " authority";
        }
      }
      return "tls: failed to verify certificate: " + t.getMessage();
    }
    if (t instanceof IOException && t.getMessage() != null
        && t.getMessage().contains("closed")) {
      return "EOF";
    }
    return t.getMessage() == null ? t.getClass().getName() : t.getMessage();
  }
}
