/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The server as a client of itself, for the handlers of subresources that act on other objects
 * (kube's eviction uses the pod store and a loopback PodDisruptionBudget client): every call is
 * an ordinary request as {@code user}, and a failure is thrown as its Status error.
 */
public record Loopback(Function<ApiRequest, ApiResponse> server, UserInfo user) {
  /** The core group's pods. */
  public static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final String USER_AGENT = "kube-apiserver/v1.36.0";

  /** A request as this loopback's user and user agent, for {@code name} unless empty. */
  public ApiRequest.Builder request(Verb verb, GroupVersionResource resource, String namespace,
      String name) {
    // kube's loopback client names itself so: its writes are managed by "kube-apiserver"
    ApiRequest.Builder b = ApiRequest.builder(verb, resource).namespace(namespace).user(user)
        .userAgent(USER_AGENT);
    return name.isEmpty() ? b : b.name(name);
  }

  /** GETs the object; throws its Status error if the server refuses. */
  public MapValue get(GroupVersionResource resource, String namespace, String name) {
    return call(request(Verb.GET, resource, namespace, name));
  }

  /** LISTs the objects of {@code namespace}; throws its Status error if the server refuses. */
  public List<MapValue> list(GroupVersionResource resource, String namespace) {
    MapValue list = call(request(Verb.LIST, resource, namespace, ""));
    List<MapValue> out = new ArrayList<>();
    if (list.getOrNull("items") instanceof ListValue items) {
      for (Value v : items.items()) {
        if (v instanceof MapValue m) {
          out.add(m);
        }
      }
    }
    return out;
  }

  /** Runs the request; the response's object, or its Status error thrown. */
  public MapValue call(ApiRequest.Builder request) {
    return server.apply(request.build()).orThrow();
  }
}
