/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;

/**
 * The Pod columns of {@code kubectl get pods} (kube's {@code podColumnDefinitions} and
 * {@code printPod} in {@code pkg/printers/internalversion}).
 */
public final class PodPrinter {
  private static final String CORE = "io.k8s.api.core.v1.";

  private PodPrinter() {}

  /** Name, Ready, Status, Restarts and Age; IP, Node, Nominated Node and Readiness Gates wide. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Ready", "string", "The aggregate readiness state of this pod for accepting"
            + " traffic."),
        col("Status", "string", "The aggregate status of the containers in this pod."),
        col("Restarts", "string", "The number of times the containers in this pod have been"
            + " restarted and when the last container in this pod has restarted."), AGE,
        wide("IP", "string", doc(CORE + "PodStatus", "podIP")),
        wide("Node", "string", doc(CORE + "PodSpec", "nodeName")),
        wide("Nominated Node", "string", doc(CORE + "PodStatus", "nominatedNodeName")),
        wide("Readiness Gates", "string", doc(CORE + "PodSpec", "readinessGates"))),
        PodPrinter::cells);
  }

  // kube's printPod: the aggregate status as kubectl shows it
  private static List<Value> cells(MapValue o, Instant now) {
    List<Value> specContainers = list(o, "spec", "containers");
    String reason = str(o, "status", "phase");
    if (!str(o, "status", "reason").isEmpty()) {
      reason = str(o, "status", "reason");
    }
    long restarts = 0;
    long ready = 0;
    boolean initializing = false;
    List<Value> inits = list(o, "status", "initContainerStatuses");
    for (int i = 0; i < inits.size(); i++) {
      Value c = inits.get(i);
      restarts += integer(c, "restartCount");
      if (has(c, "state", "terminated") && integer(c, "state", "terminated", "exitCode") == 0) {
        continue;
      }
      if (has(c, "state", "terminated")) {
        String r = str(c, "state", "terminated", "reason");
        reason = "Init:" + (r.isEmpty() ? "ExitCode:"
            + integer(c, "state", "terminated", "exitCode") : r);
      } else if (!str(c, "state", "waiting", "reason").isEmpty()
          && !str(c, "state", "waiting", "reason").equals("PodInitializing")) {
        reason = "Init:" + str(c, "state", "waiting", "reason");
      } else {
        reason = "Init:" + i + "/" + list(o, "spec", "initContainers").size();
      }
      initializing = true;
      break;
    }
    if (!initializing) {
      boolean hasRunning = false;
      List<Value> statuses = list(o, "status", "containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        Value c = statuses.get(i);
        restarts += integer(c, "restartCount");
        if (!str(c, "state", "waiting", "reason").isEmpty()) {
          reason = str(c, "state", "waiting", "reason");
        } else if (!str(c, "state", "terminated", "reason").isEmpty()) {
          reason = str(c, "state", "terminated", "reason");
        } else if (has(c, "state", "terminated")) {
          long signal = integer(c, "state", "terminated", "signal");
          reason = signal != 0 ? "Signal:" + signal
              : "ExitCode:" + integer(c, "state", "terminated", "exitCode");
        } else if (bool(c, "ready") && has(c, "state", "running")) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && hasRunning) {
        reason = "Running";
      }
    }
    if (has(o, "metadata", "deletionTimestamp")) {
      reason = str(o, "status", "reason").equals("NodeLost") ? "Unknown" : "Terminating";
    }
    String ip = "<none>";
    List<Value> ips = list(o, "status", "podIPs");
    if (!ips.isEmpty() && !str(ips.get(0), "ip").isEmpty()) {
      ip = str(ips.get(0), "ip");
    } else if (!str(o, "status", "podIP").isEmpty()) {
      ip = str(o, "status", "podIP");
    }
    List<Value> gates = list(o, "spec", "readinessGates");
    String readiness = "<none>";
    if (!gates.isEmpty()) {
      long trueGates = 0;
      for (Value g : gates) {
        for (Value cond : list(o, "status", "conditions")) {
          if (str(cond, "type").equals(str(g, "conditionType"))
              && str(cond, "status").equals("True")) {
            trueGates++;
          }
        }
      }
      readiness = trueGates + "/" + gates.size();
    }
    return row(name(o), ready + "/" + specContainers.size(), reason, Long.toString(restarts),
        age(o, now), ip, orNone(str(o, "spec", "nodeName")),
        orNone(str(o, "status", "nominatedNodeName")), readiness);
  }
}
