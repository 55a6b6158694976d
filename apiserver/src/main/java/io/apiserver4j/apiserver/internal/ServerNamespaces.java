/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.plugins.NamespacePhase;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import java.util.Optional;
import java.util.function.Function;

/**
 * The server's namespaces as the namespace admission plugins see them: the phase read from
 * storage (current, not cached), and creation through the pipeline, as kube-apiserver's
 * loopback client creates them.
 */
public final class ServerNamespaces implements NamespaceStore {
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  private final Store store;
  private volatile Function<ApiRequest, ApiResponse> loopback;

  ServerNamespaces(Store store) {
    this.store = store;
  }

  /** Connects the loopback client namespaces are created through, once the server is built. */
  void connect(Function<ApiRequest, ApiResponse> client) {
    this.loopback = client;
  }

  @Override
  public Optional<NamespacePhase> phase(String namespace) {
    return store.get(new ObjectKey("", "namespaces", "", namespace)).map(o -> {
      Value phase = Nested.getOrNull(o.object(), "status", "phase");
      return phase instanceof StringValue s && s.value().equals("Terminating")
          ? NamespacePhase.TERMINATING : NamespacePhase.ACTIVE;
    });
  }

  @Override
  public void create(String namespace) {
    MapValue body = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(namespace)));
    Function<ApiRequest, ApiResponse> client = loopback;
    if (client == null) {
      throw new IllegalStateException("the server is not built yet");
    }
    client.apply(ApiRequest.builder(ApiRequest.Verb.CREATE, NAMESPACES).body(body)
        .userAgent("kube-apiserver/v1.0.0 (linux/amd64)").build()).orThrow();
  }
}
