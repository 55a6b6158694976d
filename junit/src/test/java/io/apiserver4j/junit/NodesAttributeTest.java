/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code @ApiServerTest(nodes = N)}: N simulated Nodes beside the controllers, so a Deployment's
 * Pods are scheduled, run and become Ready, and the Deployment Available; none by default, where
 * Pods stay Pending.
 */
class NodesAttributeTest {
  private static final String DEPLOYMENT = "{apiVersion: apps/v1, kind: Deployment, metadata:"
      + " {name: web}, spec: {replicas: 3, selector: {matchLabels: {app: web}}, template:"
      + " {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}}}";

  private static boolean ready(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return Nested.str(c, "status").equals("True");
      }
    }
    return false;
  }

  @org.junit.jupiter.api.Nested
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD, nodes = 2,
      controllers = "*")
  class WithTwoNodesAndTheControllers {
    @Test
    void aDeploymentsPodsBecomeReadyOnTheNodes(TestApiServer server, ApiServer api) {
      assertThat(api.resources("v1", "nodes").list())
          .extracting(n -> Meta.metaString(n, "name")).hasSize(2);
      api.resources("apps/v1", "deployments").namespace("default").create(Yaml.read(DEPLOYMENT));
      assertThat(server.awaitControllersIdle(Duration.ofSeconds(60))).isTrue();

      List<MapValue> pods = api.resources("v1", "pods").namespace("default").list();
      assertThat(pods).hasSize(3).allSatisfy(p -> {
        assertThat(Nested.str(p, "status", "phase")).isEqualTo("Running");
        assertThat(ready(p)).as("Ready").isTrue();
        assertThat(Nested.str(p, "spec", "nodeName")).isNotEmpty();
      });
      MapValue deployment = api.resources("apps/v1", "deployments").namespace("default")
          .get("web");
      assertThat(Nested.integer(deployment, "status", "readyReplicas")).isEqualTo(3);
      assertThat(Nested.integer(deployment, "status", "availableReplicas")).isEqualTo(3);
    }

    @Test
    void aResetKeepsTheNodesRunning(TestApiServer server, ApiServer api) {
      api.resources("apps/v1", "deployments").namespace("default").create(Yaml.read(
          DEPLOYMENT.replace("name: web}", "name: again}")));
      assertThat(server.awaitControllersIdle(Duration.ofSeconds(60))).isTrue();
      assertThat(api.resources("v1", "pods").namespace("default").list())
          .hasSize(3).allSatisfy(p -> assertThat(ready(p)).as("Ready").isTrue());
    }
  }

  @org.junit.jupiter.api.Nested
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.PER_METHOD, controllers = "*")
  class WithoutNodes {
    @Test
    void podsStayPending(TestApiServer server, ApiServer api) {
      api.resources("apps/v1", "deployments").namespace("default").create(Yaml.read(DEPLOYMENT));
      assertThat(server.awaitControllersIdle(Duration.ofSeconds(60))).isTrue();
      assertThat(api.resources("v1", "nodes").list()).isEmpty();
      assertThat(api.resources("v1", "pods").namespace("default").list()).hasSize(3)
          .allSatisfy(p -> assertThat(Nested.str(p, "spec", "nodeName")).isEmpty());
    }
  }
}
