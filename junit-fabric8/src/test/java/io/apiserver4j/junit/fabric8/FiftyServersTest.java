/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Fifty tests, each with its own server, port and fabric8 client: what a suite of isolated
 * operator tests costs. Its run time is in surefire's report; nothing here times it.
 */
@ApiServerTest(lifecycle = Lifecycle.PER_METHOD)
class FiftyServersTest {
  KubernetesClient client;

  @RepeatedTest(50)
  void eachTestStartsFromAnEmptyServer() {
    assertThat(client.configMaps().list().getItems()).isEmpty();
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("mine")
        .endMetadata().addToData("k", "v").build()).create();
    assertThat(client.configMaps().withName("mine").get().getData()).containsEntry("k", "v");
  }
}
