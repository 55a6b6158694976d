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
record Loopback(Function<ApiRequest, ApiResponse> server, UserInfo user) {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final String USER_AGENT = "kube-apiserver/v1.36.0";

  ApiRequest.Builder request(Verb verb, GroupVersionResource resource, String namespace,
      String name) {
    // kube's loopback client names itself so: its writes are managed by "kube-apiserver"
    ApiRequest.Builder b = ApiRequest.builder(verb, resource).namespace(namespace).user(user)
        .userAgent(USER_AGENT);
    return name.isEmpty() ? b : b.name(name);
  }

  MapValue get(GroupVersionResource resource, String namespace, String name) {
    return call(request(Verb.GET, resource, namespace, name));
  }

  List<MapValue> list(GroupVersionResource resource, String namespace) {
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

  MapValue call(ApiRequest.Builder request) {
    return server.apply(request.build()).orThrow();
  }
}
