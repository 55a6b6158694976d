/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceRegistry;
import io.apiserver4j.core.GroupResource;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Backend} of an {@link ApiServer}. */
public final class FacadeBackend implements Backend {
  private static final Logger LOG = LoggerFactory.getLogger(FacadeBackend.class);
  private final ApiServer server;

  public FacadeBackend(ApiServer server) {
    this.server = server;
  }

  @Override
  public ResourceRegistry registry() {
    return server.registry();
  }

  @Override
  public io.apiserver4j.kubeapi.KubeVersion kubernetesVersion() {
    return server.kubernetesVersion();
  }

  @Override
  public io.apiserver4j.kubeapi.FeatureGates featureGates() {
    return server.featureGates();
  }

  @Override
  public ApiResponse execute(ApiRequest request) {
    return server.handle(request);
  }

  @Override
  public io.apiserver4j.apiserver.kubelet.PodLogs podLogs() {
    return server.podLogs();
  }

  @Override
  public ApiWatch watch(ApiRequest request) {
    return server.watch(request);
  }

  @Override
  public Map<GroupResource, Long> storedObjects() {
    Map<GroupResource, Long> out = new TreeMap<>(
        Comparator.comparing(GroupResource::group).thenComparing(GroupResource::resource));
    for (ResourceDefinition d : server.registry().all()) {
      // what storage backs: the create-only review resources are never stored
      if (!d.verbs().contains("list") || out.containsKey(d.groupResource())) {
        continue;
      }
      long n;
      try {
        n = server.storedObjects(d.groupResource());
      } catch (RuntimeException e) {
        LOG.warn("cannot count the stored {}", d.groupResource(), e);
        n = -1;
      }
      out.put(d.groupResource(), n);
    }
    return out;
  }

  @Override
  public String storageDescription() {
    return server.storageDescription();
  }

  @Override
  public java.util.Optional<String> storageCheck() {
    return server.storageCheck();
  }
}
