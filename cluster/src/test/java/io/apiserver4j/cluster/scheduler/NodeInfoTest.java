/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Pod lists kube's {@code NodeInfo.AddPod} keeps (pkg/scheduler/framework/types.go:
 * {@code PodsWithAffinity} for a Pod whose affinity has a podAffinity or podAntiAffinity,
 * {@code PodsWithRequiredAntiAffinity} for one with required anti-affinity terms), and the
 * per-info memo the scheduler's reused infos rely on.
 */
class NodeInfoTest {
  private static MapValue pod(String name, String affinity) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\"},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\"}]" + (affinity.isEmpty() ? ""
            : ",\"affinity\":" + affinity) + "}}");
  }

  private static NodeInfo node() {
    return new NodeInfo((MapValue) Json.read("{\"metadata\":{\"name\":\"n1\"},"
        + "\"status\":{\"allocatable\":{\"cpu\":\"1\",\"pods\":\"10\"}}}"));
  }

  @Test
  void keepsThePodsWithAffinityAndThoseWithRequiredAntiAffinityAsKubeDoes() {
    String term = "{\"topologyKey\":\"zone\",\"labelSelector\":{\"matchLabels\":{\"a\":\"b\"}}}";
    MapValue plain = pod("plain", "");
    MapValue nodeAffinityOnly = pod("node-affinity", "{\"nodeAffinity\":{}}");
    MapValue preferredAffinity = pod("preferred", "{\"podAffinity\":{"
        + "\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":1,"
        + "\"podAffinityTerm\":" + term + "}]}}");
    MapValue emptyAntiAffinity = pod("empty-anti", "{\"podAntiAffinity\":{}}");
    MapValue requiredAntiAffinity = pod("required-anti", "{\"podAntiAffinity\":{"
        + "\"requiredDuringSchedulingIgnoredDuringExecution\":[" + term + "]}}");
    NodeInfo info = node();
    for (MapValue p : List.of(plain, nodeAffinityOnly, preferredAffinity, emptyAntiAffinity,
        requiredAntiAffinity)) {
      info.add(p);
    }

    assertThat(info.podList).hasSize(5);
    assertThat(info.podsWithAffinity)
        .containsExactly(preferredAffinity, emptyAntiAffinity, requiredAntiAffinity);
    assertThat(info.podsWithRequiredAntiAffinity).containsExactly(requiredAntiAffinity);

    NodeInfo without = info.with(List.of(requiredAntiAffinity), List.of());
    assertThat(without.podsWithAffinity).containsExactly(preferredAffinity, emptyAntiAffinity);
    assertThat(without.podsWithRequiredAntiAffinity).isEmpty();
  }

  @Test
  void computesAMemoOncePerInfoAndACopyAfresh() {
    NodeInfo info = node();
    info.add(pod("a", ""));
    AtomicInteger calls = new AtomicInteger();

    assertThat(info.memo("k", () -> calls.incrementAndGet() * 10L)).isEqualTo(10);
    assertThat(info.memo("k", () -> calls.incrementAndGet() * 10L)).isEqualTo(10);
    assertThat(info.memo("other", () -> calls.incrementAndGet() * 10L)).isEqualTo(20);
    NodeInfo copy = info.with(List.of(), List.of(pod("b", "")));
    assertThat(copy.memo("k", () -> calls.incrementAndGet() * 10L)).isEqualTo(30);
    assertThat(calls).hasValue(3);
  }
}
