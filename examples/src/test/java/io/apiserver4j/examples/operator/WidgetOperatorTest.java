/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples.operator;

import static io.apiserver4j.junit.fabric8.Fabric8Objects.assertThat;
import static java.util.concurrent.TimeUnit.SECONDS;

import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.WithManifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

@ApiServerTest(garbageCollection = true)
@WithManifests("operator/widget-crd.yaml")
class WidgetOperatorTest {
  KubernetesClient client;

  @Test
  void reconcilesEachWidgetIntoAnOwnedConfigMapThatIsCollectedWithIt() {
    try (WidgetOperator operator = WidgetOperator.start(client)) {
      client.resource(new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
          .withKind("Widget").withNewMetadata().withName("w").endMetadata()
          .withAdditionalProperties(Map.of("spec", Map.of("color", "blue"))).build()).create();

      ConfigMap owned = client.configMaps().withName("w-config").waitUntilCondition(
          c -> c != null && "blue".equals(c.getData().get("color")), 10, SECONDS);
      // uids: the four namespaces, the CRD, the APIService kube registers for its group
      // version, then the widget
      assertThat(owned).field(".data.color").isAppliedBy(WidgetOperator.MANAGER).and()
          .field(".metadata.ownerReferences[uid=\"00000000-0000-4000-8000-000000000007\"]")
          .isAppliedBy(WidgetOperator.MANAGER);

      client.genericKubernetesResources("example.com/v1", "Widget").withName("w").delete();
      client.configMaps().withName("w-config").waitUntilCondition(Objects::isNull, 10, SECONDS);
    }
  }
}
