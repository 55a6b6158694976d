/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The request every client scenario answers: create a ConfigMap, then get it back. */
final class ConfigMaps {
  private ConfigMaps() {}

  static void createAndGet(KubernetesClient client) {
    ConfigMap cm = new ConfigMapBuilder().withNewMetadata().withName("cold").endMetadata()
        .addToData("k", "v").build();
    client.configMaps().inNamespace("default").resource(cm).create();
    ConfigMap read = client.configMaps().inNamespace("default").withName("cold").get();
    if (read == null || !"v".equals(read.getData().get("k"))) {
      throw new IllegalStateException("the ConfigMap did not come back: " + read);
    }
  }
}
