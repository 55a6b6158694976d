/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import io.apiserver4j.junit.ApiServerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/** Scenario (c): what a user's first test class with {@code @ApiServerTest} does. */
@ApiServerTest
public class ExtensionTestClass {
  KubernetesClient client;

  @Test
  void createAndGet() {
    Phases.end("test");
    ConfigMaps.createAndGet(client);
    Phases.end("answered");
  }
}
