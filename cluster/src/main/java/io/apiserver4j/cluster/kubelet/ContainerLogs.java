/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.kubelet;

import io.apiserver4j.apiserver.kubelet.PodLogOptions;
import io.apiserver4j.apiserver.kubelet.PodLogs;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusErrors;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The simulated kubelets' {@code /containerLogs} as kube-apiserver reads it through
 * {@code pods/log}: the Pod's log ({@link Kubelet#log}) for Pods on a simulated Node, filtered
 * as the kubelet filters ({@code sinceSeconds}/{@code sinceTime} against the container's start,
 * then {@code tailLines}, then the {@code timestamps} prefix, then {@code limitBytes}), and the
 * kubelet's errors for a container still waiting to start or without a previous instance. Pods on
 * other Nodes have no kubelet to answer. Thread-safe.
 */
public final class ContainerLogs implements PodLogs {
  /** The kubelet's {@code RFC3339NanoFixed}: nanoseconds always written. */
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX");
  private final Kubelet kubelet;
  private final Clock clock;

  /** The logs of {@code kubelet}'s Pods, with times on {@code clock}. */
  public ContainerLogs(Kubelet kubelet, Clock clock) {
    this.kubelet = kubelet;
    this.clock = clock;
  }

  @Override
  public Optional<String> read(MapValue pod, String container, PodLogOptions options) {
    if (!kubelet.simulates(Nested.str(pod, "spec", "nodeName"))) {
      return Optional.empty();
    }
    String podName = Nested.str(pod, "metadata", "name");
    MapValue status = containerStatus(pod, container);
    String waiting = status == null ? "ContainerCreating"
        : Nested.mapOrNull(status, "state", "waiting") != null
            ? Nested.str(status, "state", "waiting", "reason") : "";
    if (!waiting.isEmpty()) {
      throw StatusErrors.badRequest("container " + quote(container) + " in pod "
          + quote(podName) + " is waiting to start: " + waiting);
    }
    if (options.previous() && !(status.getOrNull("restartCount") instanceof IntegerValue n
        && n.value() > 0)) {
      throw StatusErrors.badRequest("previous terminated container " + quote(container)
          + " in pod " + quote(podName) + " not found");
    }
    Instant started = startedAt(status, pod);
    Optional<Instant> cutoff = options.sinceTime().or(() -> options.sinceSeconds().isPresent()
        ? Optional.of(clock.instant().minusSeconds(options.sinceSeconds().getAsLong()))
        : Optional.empty());
    String text = cutoff.isPresent() && started.isBefore(cutoff.get()) ? ""
        : kubelet.log(pod);
    text = only(options.tailLines(), OptionalLong.empty()).trim(text);
    if (options.timestamps() && !text.isEmpty()) {
      String prefix = TIMESTAMP.format(started.atOffset(ZoneOffset.UTC)) + " ";
      StringBuilder b = new StringBuilder();
      int from = 0;
      while (from < text.length()) {
        int nl = text.indexOf('\n', from);
        int end = nl < 0 ? text.length() : nl + 1;
        b.append(prefix).append(text, from, end);
        from = end;
      }
      text = b.toString();
    }
    return Optional.of(only(OptionalLong.empty(), options.limitBytes()).trim(text));
  }

  private static PodLogOptions only(OptionalLong tailLines, OptionalLong limitBytes) {
    return new PodLogOptions("", false, false, false, OptionalLong.empty(), Optional.empty(),
        tailLines, limitBytes);
  }

  private static MapValue containerStatus(MapValue pod, String container) {
    for (String list : new String[] {"initContainerStatuses", "containerStatuses",
        "ephemeralContainerStatuses"}) {
      for (Value s : Nested.list(pod, "status", list)) {
        if (s instanceof MapValue m && container.equals(Nested.str(m, "name"))) {
          return m;
        }
      }
    }
    return null;
  }

  /** When the container's current instance started; the Pod's start if it does not say. */
  private Instant startedAt(MapValue status, MapValue pod) {
    for (String state : new String[] {"running", "terminated"}) {
      String at = Nested.str(status, "state", state, "startedAt");
      if (!at.isEmpty()) {
        return Instant.parse(at);
      }
    }
    String start = Nested.str(pod, "status", "startTime");
    return start.isEmpty() ? clock.instant() : Instant.parse(start);
  }

  private static String quote(String s) {
    return io.apiserver4j.core.GoStrings.quote(s);
  }
}
