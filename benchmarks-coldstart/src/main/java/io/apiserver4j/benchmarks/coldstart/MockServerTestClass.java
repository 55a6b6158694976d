/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/** Scenario (d): the same test on fabric8's mock server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
public class MockServerTestClass {
  KubernetesClient client;

  @Test
  void createAndGet() {
    Phases.end("test");
    ConfigMaps.createAndGet(client);
    Phases.end("answered");
  }
}
