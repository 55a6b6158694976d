/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A request path read the way kube-apiserver's {@code RequestInfoFactory} reads it: either an
 * API resource request ({@code /api/v1/...}, {@code /apis/g/v/...}) with its coordinates and
 * verb, or a non-resource request (discovery, OpenAPI, health, version) with the lower-case
 * HTTP method as verb.
 *
 * @param verb kube's verb: get, list, watch, create, update, patch, delete, deletecollection for
 *     resources; the HTTP method in lower case otherwise
 * @param namespace for {@code /namespaces/x} itself this is {@code x}, as in kube
 * @param parts the path segments after {@code group/version} (and after the namespace prefix)
 */
public record RequestInfo(boolean resourceRequest, String path, String verb, String apiPrefix,
    String group, String version, String namespace, String resource, String name,
    String subresource, List<String> parts) {

  private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

  /** Parses {@code path} (already percent-decoded into segments) for {@code method}. */
  public static RequestInfo parse(String method, String path, boolean watchParam) {
    String httpVerb = method.toLowerCase(java.util.Locale.ROOT);
    RequestInfo nonResource = new RequestInfo(false, path, httpVerb, "", "", "", "", "", "", "",
        List.of());
    List<String> segs = split(path);
    if (segs.isEmpty() || !(segs.get(0).equals("api") || segs.get(0).equals("apis"))) {
      return nonResource;
    }
    String prefix = segs.get(0);
    List<String> cur = new ArrayList<>(segs.subList(1, segs.size()));
    String group = "";
    if (prefix.equals("apis")) {
      if (cur.size() < 3) {
        // /apis, /apis/g and /apis/g/v are discovery
        return nonResource;
      }
      group = cur.remove(0);
    } else if (cur.size() < 2) {
      return nonResource;
    }
    String version = cur.remove(0);
    String verb;
    switch (httpVerb) {
      case "post":
        verb = "create";
        break;
      case "get":
      case "head":
        verb = "get";
        break;
      case "put":
        verb = "update";
        break;
      case "patch":
        verb = "patch";
        break;
      case "delete":
        verb = "delete";
        break;
      default:
        verb = "";
    }
    boolean watchPath = false;
    if (!cur.isEmpty() && cur.get(0).equals("watch")) {
      // the deprecated /watch/ paths
      cur.remove(0);
      watchPath = true;
      verb = "watch";
    }
    String namespace = "";
    if (!cur.isEmpty() && cur.get(0).equals("namespaces") && cur.size() > 1) {
      namespace = cur.get(1);
      if (cur.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(cur.get(2))) {
        cur = new ArrayList<>(cur.subList(2, cur.size()));
      }
    }
    String resource = cur.isEmpty() ? "" : cur.get(0);
    String name = cur.size() >= 2 ? cur.get(1) : "";
    String subresource = cur.size() >= 3 ? cur.get(2) : "";
    if (name.isEmpty()) {
      if (verb.equals("get")) {
        verb = watchParam || watchPath ? "watch" : "list";
      } else if (verb.equals("delete")) {
        verb = "deletecollection";
      }
    } else if (verb.equals("get") && watchParam && subresource.isEmpty()) {
      verb = "watch";
    }
    return new RequestInfo(true, path, verb, prefix, group, version, namespace, resource, name,
        subresource, List.copyOf(cur));
  }

  private static List<String> split(String path) {
    List<String> out = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
