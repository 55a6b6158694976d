/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.clientjava;

import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.junit.TestApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

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

  /**
   * Loads the client's classes (OkHttp, Gson and the model's adapters) off the test's thread: one
   * request through them that nothing answers (a loopback port just closed, refused at once,
   * reaching no other process) and one object decoded.
   *
   * @throws IOException when no loopback port can be bound
   */
  @Override
  public void prepare() throws IOException {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    ApiClient client = new ClientBuilder().setBasePath("http://127.0.0.1:" + closed).build();
    try {
      new CoreV1Api(client).readNamespacedConfigMap("prepare", "default").execute();
    } catch (ApiException refused) {
      // expected: nothing listens there
    } finally {
      close(client);
    }
    client.getJSON().deserialize("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"prepare\",\"resourceVersion\":\"1\"},"
        + "\"data\":{\"k\":\"v\"}}", V1ConfigMap.class);
  }

  @Override
  public void close(ApiClient client) {
    client.getHttpClient().dispatcher().executorService().shutdown();
    client.getHttpClient().connectionPool().evictAll();
  }
}
