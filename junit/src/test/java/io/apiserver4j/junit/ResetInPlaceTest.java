/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A reset of a server running kube-controller-manager's controllers resets them in place: the
 * same informer and worker threads go on, what the test made is gone from their caches, and they
 * act on the restored state as controllers just started would.
 */
class ResetInPlaceTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final String REPLICA_SET = "{apiVersion: apps/v1, kind: ReplicaSet, metadata:"
      + " {name: web}, spec: {replicas: 2, selector: {matchLabels: {app: web}}, template:"
      + " {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}}}";

  @Test
  void theControllersKeepTheirThreadsAndActAsNewOnTheRestoredState() {
    try (TestApiServer.Standalone server = TestApiServer.startWithControllers(List.of("*"))) {
      ResourceClient replicaSets = server.resources("apps/v1", "replicasets")
          .namespace("default");
      ResourceClient pods = server.resources("v1", "pods").namespace("default");
      List<String> firstUids = podsOf(server, replicaSets, pods);
      assertThat(firstUids).hasSize(2);
      Set<Thread> informersBefore = threads("apiserver4j-informer-");

      server.reset();

      assertThat(replicaSets.list()).isEmpty();
      assertThat(pods.list()).isEmpty();
      // no informer was stopped or started: every informer thread now ran before the reset
      assertThat(threads("apiserver4j-informer-")).isEqualTo(informersBefore);
      assertThat(informersBefore).allMatch(Thread::isAlive);
      // the same test again starts from the same uids, clock and controllers as after start;
      // the Events the controller records are written asynchronously, as kube's broadcaster
      // does, so only the first Pod's uid comes before any of them for certain
      List<String> again = podsOf(server, replicaSets, pods);
      assertThat(again).hasSize(2);
      assertThat(again.get(0)).isEqualTo(firstUids.get(0));
    }
  }

  @Test
  void aResetDropsWorkTheTestLeftQueuedOrOnATimer() {
    try (TestApiServer.Standalone server = TestApiServer.startWithControllers(
        List.of("*"))) {
      ResourceClient replicaSets = server.resources("apps/v1", "replicasets")
          .namespace("default");
      // created and reset at once: the ReplicaSet controller may be mid-way through its Pods
      replicaSets.create(Yaml.read(REPLICA_SET));
      server.reset();
      assertThat(server.awaitControllersIdle(IDLE)).isTrue();
      assertThat(replicaSets.list()).isEmpty();
      assertThat(server.resources("v1", "pods").namespace("default").list()).isEmpty();
      assertThat(server.clock().instant()).isEqualTo(TestClock.DEFAULT_START);
      // the controller's expectations for default/web were dropped with the objects
      assertThat(podsOf(server, replicaSets, server.resources("v1", "pods")
          .namespace("default"))).hasSize(2);
    }
  }

  /** Creates the ReplicaSet, waits for the controllers, and answers its Pods' uids, sorted. */
  private static List<String> podsOf(TestApiServer server, ResourceClient replicaSets,
      ResourceClient pods) {
    replicaSets.create(Yaml.read(REPLICA_SET));
    assertThat(server.awaitControllersIdle(IDLE)).isTrue();
    List<MapValue> list = pods.list();
    assertThat(list).extracting(p -> Meta.metaString(p, "generateName"))
        .containsExactly("web-", "web-");
    return list.stream().map(p -> Meta.metaString(p, "uid")).sorted().toList();
  }

  private static Set<Thread> threads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(prefix)).collect(Collectors.toSet());
  }
}
