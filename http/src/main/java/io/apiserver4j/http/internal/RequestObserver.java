/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.GoStrings;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when a request ends: its line in the access log and its count and latency in the
 * {@link RequestMetrics}. One per request, wrapping the Jetty callback, so a watch is observed
 * when its stream ends, as kube-apiserver observes it.
 *
 * <p>The access log is kube's {@code httplog} line, on the SLF4J logger
 * {@value #ACCESS_LOGGER} at DEBUG:
 * {@code "HTTP" verb="LIST" URI="/api/v1/pods?limit=500" latency="1.52ms" userAgent="kubectl/..."
 * audit-ID="" srcIP="127.0.0.1:51234" resp=200}.
 */
final class RequestObserver implements Callback {
  /** The logger of the access log. */
  static final String ACCESS_LOGGER = "io.apiserver4j.http.httplog";
  private static final Logger ACCESS = LoggerFactory.getLogger(ACCESS_LOGGER);

  private final Request request;
  private final Response response;
  private final Callback delegate;
  private final RequestMetrics metrics;
  private final long start = System.nanoTime();
  private volatile RequestInfo info;
  private volatile RequestMetrics.Labels labels;

  RequestObserver(Request request, Response response, Callback delegate,
      RequestMetrics metrics) {
    this.request = request;
    this.response = response;
    this.delegate = delegate;
    this.metrics = metrics;
  }

  /** The request as routing read it (for the verb of the log line). */
  void info(RequestInfo i) {
    this.info = i;
  }

  /** Counts this request in the metrics under these labels (an instrumented endpoint). */
  void instrument(RequestMetrics.Labels l) {
    this.labels = l;
  }

  @Override
  public void succeeded() {
    observe();
    delegate.succeeded();
  }

  @Override
  public void failed(Throwable x) {
    observe();
    delegate.failed(x);
  }

  @Override
  public InvocationType getInvocationType() {
    return delegate.getInvocationType();
  }

  private void observe() {
    long elapsed = System.nanoTime() - start;
    int code = response.getStatus();
    RequestMetrics.Labels l = labels;
    if (l != null) {
      metrics.record(l, code, elapsed);
    }
    if (ACCESS.isDebugEnabled()) {
      ACCESS.debug(line(elapsed, code));
    }
  }

  private String line(long elapsedNanos, int code) {
    RequestInfo i = info;
    if (i == null) {
      String path = request.getHttpURI().getPath();
      i = RequestInfo.parse(request.getMethod(), path == null ? "/" : path, false);
    }
    String verb = RequestVerbs.normalized(request.getMethod(), i,
        request.getHeaders().get("Content-Type"));
    return line(verb, request.getHttpURI().getPathQuery(), elapsedNanos,
        request.getHeaders().get("User-Agent"), response.getHeaders().get("Audit-Id"),
        hostPort(Request.getRemoteAddr(request), Request.getRemotePort(request)), code);
  }

  /** kube's httplog line (klog's key="value" form, values quoted as Go quotes them). */
  static String line(String verb, String uri, long elapsedNanos, String userAgent,
      String auditId, String srcIp, int code) {
    StringBuilder sb = new StringBuilder(256).append("\"HTTP\" verb=");
    GoStrings.appendQuoted(sb, verb);
    sb.append(" URI=");
    GoStrings.appendQuoted(sb, uri);
    sb.append(" latency=");
    GoStrings.appendQuoted(sb, goDuration(elapsedNanos));
    sb.append(" userAgent=");
    GoStrings.appendQuoted(sb, userAgent == null ? "" : userAgent);
    sb.append(" audit-ID=");
    GoStrings.appendQuoted(sb, auditId == null ? "" : auditId);
    sb.append(" srcIP=");
    GoStrings.appendQuoted(sb, srcIp);
    return sb.append(" resp=").append(code).toString();
  }

  /** Go's {@code net.JoinHostPort}: IPv6 addresses in brackets. */
  static String hostPort(String host, int port) {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  /**
   * Go's {@code time.Duration.String()}: {@code 812ns}, {@code 1.5µs}, {@code 2.034ms},
   * {@code 1.5s}, {@code 2m3.5s}, {@code 1h0m0s}, without trailing zeros.
   */
  static String goDuration(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    long d = Math.abs(nanos);
    if (d < 1_000) {
      return sign + d + "ns";
    }
    if (d < 1_000_000) {
      return sign + fraction(d, 1_000) + "µs";
    }
    if (d < 1_000_000_000) {
      return sign + fraction(d, 1_000_000) + "ms";
    }
    long hours = d / 3_600_000_000_000L;
    long minutes = d / 60_000_000_000L % 60;
    String seconds = fraction(d % 60_000_000_000L, 1_000_000_000) + "s";
    if (hours > 0) {
      return sign + hours + "h" + minutes + "m" + seconds;
    }
    if (minutes > 0) {
      return sign + minutes + "m" + seconds;
    }
    return sign + seconds;
  }

  /** {@code value / unit} in decimal, exact, without trailing zeros. */
  private static String fraction(long value, long unit) {
    long whole = value / unit;
    long rest = value % unit;
    if (rest == 0) {
      return Long.toString(whole);
    }
    String digits = Long.toString(unit + rest).substring(1);
    int end = digits.length();
    while (digits.charAt(end - 1) == '0') {
      end--;
    }
    return whole + "." + digits.substring(0, end);
  }
}
