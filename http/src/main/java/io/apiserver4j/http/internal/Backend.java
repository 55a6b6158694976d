/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceRegistry;

/** What the HTTP layer needs from the request pipeline. */
public interface Backend {
  ResourceRegistry registry();

  /** The Kubernetes release the server serves (its emulated version); default the newest. */
  default io.apiserver4j.kubeapi.KubeVersion kubernetesVersion() {
    return io.apiserver4j.kubeapi.KubeVersion.latest();
  }

  /** The server's feature gates; default the defaults of {@link #kubernetesVersion()}. */
  default io.apiserver4j.kubeapi.FeatureGates featureGates() {
    return io.apiserver4j.kubeapi.FeatureGates.defaults(kubernetesVersion());
  }

  /** Runs a non-watch request; failures come back as Status responses, never as exceptions. */
  ApiResponse execute(ApiRequest request);

  /**
   * Starts a watch; the events carry objects ready to be sent (at the requested version, with
   * kind and apiVersion).
   *
   * @throws io.apiserver4j.core.errors.StatusException if the watch cannot start (bad selector,
   *     unknown resource, 410 for a compacted resource version, ...)
   */
  ApiWatch watch(ApiRequest request);

  /** Where {@code pods/log} reads container logs from; none by default. */
  default io.apiserver4j.apiserver.kubelet.PodLogs podLogs() {
    return io.apiserver4j.apiserver.kubelet.PodLogs.NONE;
  }

  /** How many objects of each stored resource the storage holds; -1 where counting failed. */
  default java.util.Map<io.apiserver4j.core.GroupResource, Long> storedObjects() {
    return java.util.Map.of();
  }

  /** The storage, as text for the start-up log line. */
  default String storageDescription() {
    return "unknown";
  }

  /** Why the storage cannot serve requests now, or empty when it can; never throws. */
  default java.util.Optional<String> storageCheck() {
    return java.util.Optional.empty();
  }
}
