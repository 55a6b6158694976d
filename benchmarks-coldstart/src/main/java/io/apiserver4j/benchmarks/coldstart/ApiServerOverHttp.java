/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.HttpApiServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** Scenario (b): {@code ApiServer} + HTTP + a fabric8 client doing create and get. */
public final class ApiServerOverHttp {
  private ApiServerOverHttp() {}

  public static void main(String[] args) throws Exception {
    Phases.end("main");
    try (ApiServer api = ApiServer.builder().build()) {
      Phases.end("server");
      try (HttpApiServer http = HttpApiServer.builder(api).port(0).build()) {
        int port = http.start();
        Phases.end("http");
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + port)
            .withNamespace("default").build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
          Phases.end("client");
          ConfigMaps.createAndGet(client);
          Phases.end("answered");
        }
      }
    }
    Phases.print();
  }
}
