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
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
    return create(server.url(), new ConfigBuilder(Config.empty()));
  }

  private KubernetesClient create(URI url, ConfigBuilder settings) {
    Config config = settings
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
   * Starts Vert.x and fabric8's serialization (the slow part of a first client) early, builds
   * one client the way {@link #create} does and sends one request that nothing answers (a
   * loopback port just closed), and decodes one object.
   *
   * @throws IOException when no loopback port can be bound
   */
  @Override
  public void prepare() throws IOException {
    synchronized (this) {
      shared();
      // the model classes a first request loads
      serialization.asJson(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
          .withNewMetadata().withName("prepare").endMetadata().build());
    }
    // fabric8 loads the JDK's trust store and SSL context and its client classes while building
    // any client, even one for an http URL; done here, the first test's create() finds them
    // ready instead of doing it on the test's thread.
    // A first request's way through fabric8, Vert.x and Netty (building the request, connecting,
    // handling the failure) is most of a first test's client time: one request to a port just
    // closed runs it here, refused at once, reaching no other process, without retries.
    URI closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = URI.create("http://127.0.0.1:" + s.getLocalPort());
    }
    try (KubernetesClient warm = create(closed,
        new ConfigBuilder(Config.empty()).withRequestRetryBackoffLimit(0))) {
      warm.configMaps().withName("prepare").get();
    } catch (KubernetesClientException refused) {
      // expected: nothing listens there
    }
    synchronized (this) {
      // and the way back: a first answer's decoding into the model classes
      serialization.unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
          + "\"metadata\":{\"name\":\"prepare\",\"resourceVersion\":\"1\"},"
          + "\"data\":{\"k\":\"v\"}}", io.fabric8.kubernetes.api.model.ConfigMap.class);
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
