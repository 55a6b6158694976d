/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.util.Locale;
import java.util.Set;

/**
 * The verb kube-apiserver reports in its metrics and its HTTP log ({@code metrics.CleanScope},
 * {@code CanonicalVerb}, {@code CleanVerb}): upper case, LIST apart from GET, WATCH, APPLY for
 * server-side apply patches, CONNECT for the streaming subresources.
 */
final class RequestVerbs {
  private static final Set<String> CONNECT_SUBRESOURCES =
      Set.of("log", "exec", "portforward", "attach", "proxy");
  private static final Set<String> METRIC_VERBS = Set.of("APPLY", "CONNECT", "CREATE", "DELETE",
      "DELETECOLLECTION", "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE", "WATCH",
      "WATCHLIST");
  private static final String APPLY_PATCH = "application/apply-patch+yaml";

  private RequestVerbs() {}

  /** kube's {@code CleanScope}: resource, namespace, cluster, or empty (non-resource). */
  static String scope(RequestInfo info) {
    if (!info.name().isEmpty() || info.verb().equals("create")) {
      return "resource";
    }
    if (!info.namespace().isEmpty()) {
      return "namespace";
    }
    return info.resourceRequest() ? "cluster" : "";
  }

  /** kube's {@code NormalizedVerb}, what its HTTP log prints. */
  static String normalized(String method, RequestInfo info, String contentType) {
    String verb = method.toUpperCase(Locale.ROOT);
    String scope = scope(info);
    if (verb.equals("GET") || verb.equals("HEAD")) {
      verb = !scope.equals("resource") && !scope.isEmpty() ? "LIST" : "GET";
    }
    if (info.verb().equals("watch")) {
      verb = "WATCH";
    }
    if (verb.equals("PATCH") && APPLY_PATCH.equals(contentType)) {
      verb = "APPLY";
    }
    if (info.resourceRequest() && CONNECT_SUBRESOURCES.contains(info.subresource())) {
      verb = "CONNECT";
    }
    return verb;
  }

  /** The verb label of the request metrics: unknown verbs count as {@code other}. */
  static String forMetrics(String method, RequestInfo info, String contentType) {
    String verb = normalized(method, info, contentType);
    return METRIC_VERBS.contains(verb) ? verb : "other";
  }

  /**
   * kube's {@code cleanDryRun}: empty without {@code dryRun}, {@code invalid} for a value other
   * than {@code All}, else the distinct values sorted and joined with commas.
   */
  static String dryRun(java.util.List<String> values) {
    if (values == null || values.isEmpty()) {
      return "";
    }
    java.util.TreeSet<String> distinct = new java.util.TreeSet<>(values);
    for (String v : distinct) {
      if (!v.equals("All")) {
        return "invalid";
      }
    }
    return String.join(",", distinct);
  }
}
