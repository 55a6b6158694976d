package io.apiserver4j.junit.fabric8;

import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.junit.TestApiServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Injects a fabric8 {@link KubernetesClient} into the fields and parameters of
 * {@link io.apiserver4j.junit.ApiServerTest} classes: connected to the test server's URL, namespace
 * {@code default}, ignoring the user's own kubeconfig and environment. Registered through
 * {@code META-INF/services}; closed with the server.
 */
public final class KubernetesClientFactory implements ClientFactory<KubernetesClient> {
  @Override
  public Class<KubernetesClient> type() {
    return KubernetesClient.class;
  }

  @Override
  public KubernetesClient create(TestApiServer server) {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(server.url().toString())
        .withNamespace("default")
        .withRequestTimeout(30_000)
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
