/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.clientjava;

import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.junit.TestApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;

/**
 * Injects the official Kubernetes Java client's {@link ApiClient} into the fields and parameters
 * of {@link io.apiserver4j.junit.ApiServerTest} classes, connected to the test server's URL and
 * ignoring the user's own kubeconfig and environment. Registered as a
 * {@link io.apiserver4j.junit.ClientFactory} service (the module's {@code provides}, and
 * {@code META-INF/services} on the class path); its connections and threads are released with
 * the server.
 */
public final class ApiClientFactory implements ClientFactory<ApiClient> {
  /** What {@link java.util.ServiceLoader} calls. */
  public ApiClientFactory() {}

  @Override
  public Class<ApiClient> type() {
    return ApiClient.class;
  }

  @Override
  public ApiClient create(TestApiServer server) {
    return new ClientBuilder().setBasePath(server.url().toString()).setVerifyingSsl(true)
        .build();
  }

  @Override
  public void close(ApiClient client) {
    client.getHttpClient().dispatcher().executorService().shutdown();
    client.getHttpClient().connectionPool().evictAll();
  }
}
