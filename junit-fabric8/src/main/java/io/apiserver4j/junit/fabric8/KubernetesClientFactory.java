/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.fabric8;

import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.junit.TestApiServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import java.net.URI;

/**
 * Injects a fabric8 {@link KubernetesClient} into the fields and parameters of
 * {@link io.apiserver4j.junit.ApiServerTest} classes: connected to the test server's URL, namespace
 * {@code default}, ignoring the user's own kubeconfig and environment. Registered as a
 * {@link io.apiserver4j.junit.ClientFactory} service (the module's {@code provides}, and
 * {@code META-INF/services} on the class path); closed with the server.
 *
 * <p>The clients of one test run share a Vert.x instance and a {@link KubernetesSerialization}
 * (fabric8 makes both per client by default, which costs more than starting a test server), so a
 * server per test stays cheap.
 */
public final class KubernetesClientFactory implements ClientFactory<KubernetesClient> {
  private Vertx vertx;
  private VertxHttpClientFactory httpClients;
  private KubernetesSerialization serialization;

  /** What {@link java.util.ServiceLoader} calls. */
  public KubernetesClientFactory() {}

  @Override
  public Class<KubernetesClient> type() {
    return KubernetesClient.class;
  }

  @Override
  public KubernetesClient create(TestApiServer server) {
    return create(server.url());
  }

  private KubernetesClient create(URI url) {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(url.toString())
        .withNamespace("default")
        .withRequestTimeout(30_000)
        .build();
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config);
    synchronized (this) {
      shared();
      builder.withHttpClientFactory(httpClients).withKubernetesSerialization(serialization);
    }
    return builder.build();
  }

  /**
   * Starts Vert.x and fabric8's serialization (the slow part of a first client) early, and
   * builds and closes one client the way {@link #create} does, never connecting it.
   */
  @Override
  public void prepare() {
    synchronized (this) {
      shared();
      // the model classes a first request loads
      serialization.asJson(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
          .withNewMetadata().withName("prepare").endMetadata().build());
    }
    // fabric8 loads the JDK's trust store and SSL context and its client classes while building
    // any client, even one for an http URL; done here, the first test's create() finds them
    // ready instead of doing it on the test's thread. Building opens no connection.
    try (KubernetesClient warm = create(URI.create("http://127.0.0.1:1"))) {
      warm.getConfiguration();
    }
  }

  private void shared() {
    if (vertx == null) {
      vertx = Vertx.vertx();
      httpClients = new VertxHttpClientFactory(vertx);
      serialization = new KubernetesSerialization();
    }
  }

  @Override
  public synchronized void shutdown() {
    if (vertx != null) {
      vertx.close();
      vertx = null;
    }
  }
}
