/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.kubelet.PodLogOptions;
import io.apiserver4j.apiserver.kubelet.PodLogs;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated kubelets answer the server's {@code pods/log}: the annotated log filtered as the
 * kubelet filters it ({@code tailLines}, {@code timestamps} in its RFC3339NanoFixed form,
 * {@code limitBytes}, {@code sinceSeconds}), the kubelet's messages for a container waiting to
 * start and for a missing previous instance, nothing for Pods on other Nodes, and no source once
 * the cluster is closed.
 */
class ContainerLogsTest {
  private ClusterFixture f;

  @AfterEach
  void close() {
    f.close();
  }

  private MapValue runningPod(String name, String startDuration) {
    f.createPod("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"annotations\":{\"" + PodSimulation.LOG + "\":\"one\\ntwo\\nthree\\n\",\""
        + PodSimulation.START_DURATION + "\":\"" + startDuration + "\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    f.idle();
    return f.pods().get(name);
  }

  private static PodLogOptions options(boolean previous, boolean timestamps, Long sinceSeconds,
      Long tailLines, Long limitBytes) {
    return new PodLogOptions("c", false, previous, timestamps,
        sinceSeconds == null ? OptionalLong.empty() : OptionalLong.of(sinceSeconds),
        Optional.empty(),
        tailLines == null ? OptionalLong.empty() : OptionalLong.of(tailLines),
        limitBytes == null ? OptionalLong.empty() : OptionalLong.of(limitBytes));
  }

  @Test
  void theLogOfARunningContainerIsFilteredAsTheKubeletFiltersIt() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    MapValue pod = runningPod("p", "0s");
    PodLogs logs = f.api.podLogs();
    assertThat(logs.read(pod, "c", PodLogOptions.of("c"))).hasValue("one\ntwo\nthree\n");
    assertThat(logs.read(pod, "c", options(false, false, null, 2L, null)))
        .hasValue("two\nthree\n");
    Instant at = Instant.parse(Nested.str(
        Nested.list(pod, "status", "containerStatuses").get(0), "state", "running",
        "startedAt"));
    assertThat(at).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(logs.read(pod, "c", options(false, true, null, 1L, null)))
        .hasValue("2026-01-01T00:00:00.000000000Z three\n");
    assertThat(logs.read(pod, "c", options(false, false, null, null, 5L))).hasValue("one\nt");
    f.advance(Duration.ofMinutes(2));
    assertThat(logs.read(pod, "c", options(false, false, 60L, null, null))).hasValue("");
    assertThat(logs.read(pod, "c", options(false, false, 600L, null, null)))
        .hasValue("one\ntwo\nthree\n");
    assertThatThrownBy(() -> logs.read(pod, "c", options(true, false, null, null, null)))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message())
              .isEqualTo("previous terminated container \"c\" in pod \"p\" not found");
        });
  }

  @Test
  void aContainerWaitingToStartHasNoLogYet() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    MapValue pod = runningPod("slow", "1m");
    assertThatThrownBy(() -> f.api.podLogs().read(pod, "c", PodLogOptions.of("c")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message())
              .isEqualTo("container \"c\" in pod \"slow\" is waiting to start: ContainerCreating");
        });
  }

  @Test
  void podsOfOtherNodesHaveNoKubeletAndClosingUninstallsTheSource() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    MapValue pod = runningPod("p", "0s");
    MapValue elsewhere = Nested.set(pod, io.apiserver4j.core.Value.of("other"), "spec",
        "nodeName");
    assertThat(f.api.podLogs().read(elsewhere, "c", PodLogOptions.of("c"))).isEmpty();
    f.cluster.close();
    assertThat(f.api.podLogs()).isSameAs(PodLogs.NONE);
  }
}
