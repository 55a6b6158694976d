/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code @ApiServerTest(controllers = ...)}: kube-controller-manager's controllers by its
 * {@code --controllers} names, on the test clock; none by default, as a bare kube-apiserver.
 */
class ControllersAttributeTest {
  private static final String REPLICA_SET = "{apiVersion: apps/v1, kind: ReplicaSet, metadata:"
      + " {name: web}, spec: {replicas: 2, selector: {matchLabels: {app: web}}, template:"
      + " {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}}}";

  @Nested
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.PER_METHOD, controllers = "replicaset")
  class WithTheReplicaSetController {
    @Test
    void aReplicaSetGetsItsPods(TestApiServer server, ApiServer api) {
      api.resources("apps/v1", "replicasets").namespace("default").create(Yaml.read(REPLICA_SET));
      assertThat(server.awaitControllersIdle(Duration.ofSeconds(30))).isTrue();
      assertThat(api.resources("v1", "pods").namespace("default").list())
          .extracting(p -> Meta.metaString(p, "generateName")).containsExactly("web-", "web-");
    }
  }

  @Nested
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.PER_METHOD)
  class WithoutControllers {
    @Test
    void aReplicaSetStaysWithoutPods(TestApiServer server, ApiServer api) {
      api.resources("apps/v1", "replicasets").namespace("default").create(Yaml.read(REPLICA_SET));
      assertThat(server.awaitControllersIdle(Duration.ofSeconds(30))).isTrue();
      assertThat(api.resources("v1", "pods").namespace("default").list()).isEmpty();
    }
  }
}
