/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.kubelet;

import io.apiserver4j.cluster.internal.Obj;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Pod statuses a simulated kubelet writes, as kubelet's {@code generateAPIPodStatus}
 * (pkg/kubelet/kubelet_pods.go) and pkg/kubelet/status/generate.go shape them: conditions
 * PodReadyToStartContainers, Initialized, Ready, ContainersReady and PodScheduled in that order,
 * readiness gates honoured, container statuses with containerd-style IDs and image digests.
 * Conditions the kubelet does not own (readiness gates, DisruptionTarget) are kept.
 */
final class PodStatuses {
  static final Set<String> KUBELET_CONDITIONS = Set.of("PodReadyToStartContainers",
      "Initialized", "Ready", "ContainersReady", "PodScheduled");

  private PodStatuses() {}

  /** Whether the Pod's containers run to completion ({@code restartPolicy} not Always). */
  static boolean runsToCompletion(MapValue pod) {
    String policy = Nested.str(pod, "spec", "restartPolicy");
    return policy.equals("Never") || policy.equals("OnFailure");
  }

  /** The Pod's status once its containers run. */
  static MapValue running(MapValue pod, String hostIp, String podIp, Instant started) {
    String time = Meta.formatTime(started);
    List<Object> inits = new ArrayList<>();
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        inits.add(runningContainer(pod, c, time));
      } else {
        inits.add(containerStatus(pod, c, true, false, Obj.map("terminated",
            terminatedState(pod, c, 0, "Completed", time, time))));
      }
    }
    List<Object> containers = new ArrayList<>();
    for (Value c : Nested.list(pod, "spec", "containers")) {
      containers.add(runningContainer(pod, c, time));
    }
    MapValue previous = Nested.map(pod, "status");
    List<MapValue> conditions = new ArrayList<>();
    conditions.add(condition("PodReadyToStartContainers", "True", "", ""));
    conditions.add(condition("Initialized", "True", "", ""));
    conditions.add(readyCondition(pod));
    conditions.add(condition("ContainersReady", "True", "", ""));
    return base(pod, previous, "Running", conditions, started)
        .with("hostIP", Value.of(hostIp))
        .with("hostIPs", Obj.list(Obj.map("ip", hostIp)))
        .with("podIP", Value.of(podIp))
        .with("podIPs", Obj.list(Obj.map("ip", podIp)))
        .with("startTime", Value.of(time))
        .with("containerStatuses", Obj.list(containers.toArray()))
        .without("initContainerStatuses")
        .with("initContainerStatuses", Obj.list(inits.toArray()))
        .without(inits.isEmpty() ? "initContainerStatuses" : "");
  }

  /** The Pod's status when its containers ended with {@code exitCode} at {@code now}. */
  static MapValue terminated(MapValue pod, int exitCode, Instant now) {
    MapValue previous = Nested.map(pod, "status");
    String time = Meta.formatTime(now);
    boolean ok = exitCode == 0;
    String startedAt = Nested.str(previous, "startTime");
    List<Object> containers = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (Value c : Nested.list(pod, "spec", "containers")) {
      names.add(Nested.str(c, "name"));
      containers.add(containerStatus(pod, c, false, false, Obj.map("terminated",
          terminatedState(pod, c, exitCode, ok ? "Completed" : "Error", startedAt, time))));
    }
    List<Object> inits = new ArrayList<>();
    for (Value c : Nested.list(previous, "initContainerStatuses")) {
      MapValue s = (MapValue) c;
      if (Nested.has(s, "state", "running")) {
        // a sidecar is stopped after the main containers, and ends as they were killed
        s = s.with("ready", Value.of(false)).with("started", Value.of(false))
            .with("state", Obj.map("terminated", Obj.map("exitCode", 0, "reason", "Completed",
                "startedAt", Nested.str(s, "state", "running", "startedAt"),
                "finishedAt", time, "containerID", Nested.str(s, "containerID"))));
      }
      inits.add(s);
    }
    String phase = ok ? "Succeeded" : "Failed";
    List<MapValue> conditions = new ArrayList<>();
    conditions.add(condition("PodReadyToStartContainers", "False", "", ""));
    conditions.add(condition("Initialized", "True", ok ? "PodCompleted" : "", ""));
    if (ok) {
      conditions.add(condition("Ready", "False", "PodCompleted", ""));
      conditions.add(condition("ContainersReady", "False", "PodCompleted", ""));
    } else {
      conditions.add(condition("Ready", "False", "PodFailed", ""));
      conditions.add(condition("ContainersReady", "False", "ContainersNotReady",
          "containers with unready status: [" + String.join(" ", names) + "]"));
    }
    return base(pod, previous, phase, conditions, now)
        .with("containerStatuses", Obj.list(containers.toArray()))
        .without("initContainerStatuses")
        .with("initContainerStatuses", Obj.list(inits.toArray()))
        .without(inits.isEmpty() ? "initContainerStatuses" : "");
  }

  /** The status with the Ready condition recomputed (readiness gates may have changed). */
  static MapValue withReadiness(MapValue pod, Instant now) {
    MapValue previous = Nested.map(pod, "status");
    List<MapValue> conditions = new ArrayList<>();
    for (Value c : Nested.list(previous, "conditions")) {
      String type = Nested.str(c, "type");
      if (KUBELET_CONDITIONS.contains(type) && !type.equals("PodScheduled")) {
        conditions.add(type.equals("Ready") ? readyCondition(pod) : (MapValue) c);
      }
    }
    return base(pod, previous, Nested.str(previous, "phase"), conditions, now);
  }

  /** Whether the Pod's Ready condition is not what its readiness gates now make it. */
  static boolean readinessChanged(MapValue pod) {
    MapValue want = readyCondition(pod);
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return !(Nested.str(c, "status").equals(Nested.str(want, "status"))
            && Nested.str(c, "reason").equals(Nested.str(want, "reason"))
            && Nested.str(c, "message").equals(Nested.str(want, "message")));
      }
    }
    return true;
  }

  /**
   * kubelet's {@code GeneratePodReadyCondition} for a Pod whose containers are ready: True
   * unless a readiness gate's condition is missing or not True.
   */
  private static MapValue readyCondition(MapValue pod) {
    List<String> unready = new ArrayList<>();
    for (Value gate : Nested.list(pod, "spec", "readinessGates")) {
      String type = Nested.str(gate, "conditionType");
      Value found = null;
      for (Value c : Nested.list(pod, "status", "conditions")) {
        if (Nested.str(c, "type").equals(type)) {
          found = c;
        }
      }
      if (found == null) {
        unready.add("corresponding condition of pod readiness gate \"" + type
            + "\" does not exist.");
      } else if (!Nested.str(found, "status").equals("True")) {
        unready.add("the status of pod readiness gate \"" + type + "\" is not \"True\", but "
            + Nested.str(found, "status"));
      }
    }
    if (unready.isEmpty()) {
      return condition("Ready", "True", "", "");
    }
    return condition("Ready", "False", "ReadinessGatesNotReady", String.join(", ", unready));
  }

  /**
   * The previous status with phase and conditions replaced: kubelet's conditions first, then
   * PodScheduled and the conditions it does not own, each keeping its transition time when its
   * status did not change.
   */
  private static MapValue base(MapValue pod, MapValue previous, String phase,
      List<MapValue> conditions, Instant now) {
    Map<String, Value> old = new LinkedHashMap<>();
    for (Value c : Nested.list(previous, "conditions")) {
      old.put(Nested.str(c, "type"), c);
    }
    long generation = Meta.generation(pod);
    List<Value> out = new ArrayList<>();
    for (MapValue c : conditions) {
      Value was = old.get(Nested.str(c, "type"));
      String transition = was != null && Nested.str(was, "status").equals(Nested.str(c,
          "status")) ? Nested.str(was, "lastTransitionTime") : Meta.formatTime(now);
      MapValue.Builder b = MapValue.builder();
      b.put("type", c.getOrNull("type"));
      if (generation != 0) {
        b.put("observedGeneration", Value.of(generation));
      }
      b.put("status", c.getOrNull("status"));
      b.put("lastProbeTime", Value.nullValue());
      b.put("lastTransitionTime", Value.of(transition));
      for (String k : List.of("reason", "message")) {
        if (!Nested.str(c, k).isEmpty()) {
          b.put(k, c.getOrNull(k));
        }
      }
      out.add(b.build());
    }
    for (Map.Entry<String, Value> e : old.entrySet()) {
      if (!KUBELET_CONDITIONS.contains(e.getKey()) || e.getKey().equals("PodScheduled")) {
        out.add(e.getValue());
      }
    }
    MapValue status = previous.with("phase", Value.of(phase))
        .with("conditions", ListValue.of(out));
    if (generation != 0) {
      status = status.with("observedGeneration", Value.of(generation));
    }
    return status;
  }

  private static MapValue condition(String type, String status, String reason, String message) {
    return Obj.map("type", type, "status", status, "reason", reason, "message", message);
  }

  private static MapValue runningContainer(MapValue pod, Value c, String time) {
    return containerStatus(pod, c, true, true, Obj.map("running", Obj.map("startedAt", time)));
  }

  private static MapValue containerStatus(MapValue pod, Value c, boolean ready, boolean started,
      MapValue state) {
    String image = Nested.str(c, "image");
    return Obj.map("name", Nested.str(c, "name"), "state", state, "lastState", Obj.map(),
        "ready", ready, "restartCount", 0, "image", normalizedImage(image),
        "imageID", imageId(image), "containerID", containerId(pod, c), "started", started);
  }

  private static MapValue terminatedState(MapValue pod, Value c, int exitCode, String reason,
      String startedAt, String finishedAt) {
    return Obj.map("exitCode", exitCode, "reason", reason, "startedAt", startedAt,
        "finishedAt", finishedAt, "containerID", containerId(pod, c));
  }

  /**
   * The image reference as containerd reports it: a Docker Hub name gets
   * {@code docker.io/library/} (or {@code docker.io/}) and a missing tag {@code :latest}.
   */
  static String normalizedImage(String image) {
    String name = image;
    int slash = name.indexOf('/');
    String first = slash < 0 ? "" : name.substring(0, slash);
    if (slash < 0) {
      name = "docker.io/library/" + name;
    } else if (!first.contains(".") && !first.contains(":") && !first.equals("localhost")) {
      name = "docker.io/" + name;
    }
    int lastSlash = name.lastIndexOf('/');
    if (!name.contains("@") && name.indexOf(':', lastSlash) < 0) {
      name = name + ":latest";
    }
    return name;
  }

  /** A repository digest for the image: {@code <repository>@sha256:<hash of the reference>}. */
  static String imageId(String image) {
    String normalized = normalizedImage(image);
    int at = normalized.indexOf('@');
    if (at >= 0) {
      return normalized;
    }
    int colon = normalized.lastIndexOf(':');
    String repository = colon > normalized.lastIndexOf('/') ? normalized.substring(0, colon)
        : normalized;
    return repository + "@sha256:" + sha256(normalized);
  }

  private static String containerId(MapValue pod, Value c) {
    return "containerd://" + sha256(Meta.metaString(pod, "uid") + "/" + Nested.str(c, "name"));
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JVM", e);
    }
  }
}
