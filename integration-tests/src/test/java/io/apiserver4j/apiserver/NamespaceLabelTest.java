/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code SetDefaults_Namespace}: "The Kubernetes control plane sets an immutable label
 * kubernetes.io/metadata.name on all namespaces. The value of the label is the namespace name."
 * (kubernetes.io/docs/concepts/overview/working-with-objects/namespaces).
 */
class NamespaceLabelTest {
  @Test
  void everyNamespaceIsLabelledWithItsNameAndTheLabelCannotBeChanged() {
    try (ApiServer server = ApiServer.builder().build()) {
      ResourceClient namespaces = server.resources("v1", "namespaces");
      MapValue created = namespaces.create(Yaml.read("""
          apiVersion: v1
          kind: Namespace
          metadata: {name: team-a, labels: {kubernetes.io/metadata.name: other, tier: x}}
          """));
      assertThat(Nested.str(created, "metadata", "labels", "kubernetes.io/metadata.name"))
          .isEqualTo("team-a");
      assertThat(Nested.str(created, "metadata", "labels", "tier")).isEqualTo("x");
      MapValue changed = namespaces.update(Nested.set(created, io.apiserver4j.core.Value.of("b"),
          "metadata", "labels", "kubernetes.io/metadata.name"));
      assertThat(Nested.str(changed, "metadata", "labels", "kubernetes.io/metadata.name"))
          .isEqualTo("team-a");
      // the namespaces the server writes at start too
      assertThat(Nested.str(namespaces.get("kube-system"), "metadata", "labels",
          "kubernetes.io/metadata.name")).isEqualTo("kube-system");
    }
  }
}
