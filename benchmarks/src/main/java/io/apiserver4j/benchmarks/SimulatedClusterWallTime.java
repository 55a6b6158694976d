/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.cluster.SimulatedCluster;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;

/**
 * The issue-26 workload on the simulated cluster: {@code sets} Deployments (or ReplicaSets) of
 * {@code replicas} Pods each (1,000 Pods of 100 Deployments by default) on {@code nodes}
 * simulated Nodes (50), from the first create until every Pod is Running and Ready, in wall
 * time, simulated time standing still (every stage has duration 0). Not a JMH benchmark: one
 * cold and {@code rounds} warm runs, each on a fresh server, each with its wall time and the
 * process CPU time it took (less noisy on a shared machine), the best warm run reported.
 *
 * <p>Run from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar
 * io.apiserver4j.benchmarks.SimulatedClusterWallTime [sets] [replicas] [nodes] [rounds]
 * [deployments|replicasets]}
 */
public final class SimulatedClusterWallTime {
  private SimulatedClusterWallTime() {}

  public static void main(String[] args) {
    int sets = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int replicas = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int nodes = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    boolean deployments = args.length <= 4 || args[4].equals("deployments");
    String kind = deployments ? "Deployments" : "ReplicaSets";
    long best = Long.MAX_VALUE;
    long bestCpu = Long.MAX_VALUE;
    for (int r = 0; r <= rounds; r++) {
      long cpuBefore = processCpuNanos();
      long nanos = run(sets, replicas, nodes, deployments);
      long cpu = processCpuNanos() - cpuBefore;
      System.out.printf("%s run: %d Pods of %d %s Ready on %d Nodes in %.2f s wall, %.2f s "
          + "process CPU%n", r == 0 ? "cold" : "warm " + r, sets * replicas, sets, kind, nodes,
          nanos / 1e9, cpu / 1e9);
      if (r > 0) {
        best = Math.min(best, nanos);
        bestCpu = Math.min(bestCpu, cpu);
      }
    }
    System.out.printf("best warm run: %.2f s wall, %.2f s process CPU%n", best / 1e9,
        bestCpu / 1e9);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static long run(int sets, int replicas, int nodes, boolean deployments) {
    try (ApiServer api = ApiServer.builder().build();
        ControllerManager controllers = ControllerManager.builder(api)
            .controllers(deployments ? "deployment,replicaset" : "replicaset").start();
        SimulatedCluster cluster = SimulatedCluster.builder(api).nodes(nodes).start()) {
      api.resources("v1", "namespaces").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"bench\"}}"));
      long start = System.nanoTime();
      for (int i = 0; i < sets; i++) {
        api.resources("apps/v1", deployments ? "deployments" : "replicasets").namespace("bench")
            .create(Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":\""
                + (deployments ? "Deployment" : "ReplicaSet") + "\",\"metadata\":{\"name\":\"set-"
                + i + "\"},\"spec\":{\"replicas\":" + replicas + ",\"selector\":{\"matchLabels\":"
                + "{\"app\":\"a" + i + "\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"a"
                + i + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
                + "\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}]}}}}"));
      }
      while (ready(api) < sets * replicas) {
        if (!controllers.awaitIdle(Duration.ofMinutes(5))
            || !cluster.awaitIdle(Duration.ofMinutes(5))) {
          throw new IllegalStateException("the cluster did not settle");
        }
      }
      return System.nanoTime() - start;
    }
  }

  private static long ready(ApiServer api) {
    List<MapValue> pods = api.resources("v1", "pods").namespace("bench").list();
    return pods.stream().filter(p -> Nested.list(p, "status", "conditions").stream()
        .anyMatch(c -> Nested.str(c, "type").equals("Ready")
            && Nested.str(c, "status").equals("True"))).count();
  }
}
