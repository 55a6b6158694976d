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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The issue-26 workload on the simulated cluster: {@code sets} Deployments (or ReplicaSets) of
 * {@code replicas} Pods each (1,000 Pods of 100 Deployments by default) on {@code nodes}
 * simulated Nodes (50), from the first create until every Pod is Running and Ready, in wall
 * time, simulated time standing still: every stage has duration 0 and the server, controllers
 * and simulated Nodes share a fixed clock, so that no Lease renewal or Node status report
 * falls due during a run however long its wall time (on the system clock, a run of a minute on
 * a loaded machine made some 400 Lease writes more than a run of ten seconds). Not a JMH
 * benchmark: one
 * cold and {@code rounds} warm runs, each on a fresh server, each with its wall time and the
 * process CPU time it took (less noisy on a shared machine), the best warm run reported. With
 * {@code -Dsimperf.writes=true} each run also prints the writes the server committed, by
 * resource and verb (create, update, delete), to see which controller's traffic dominates.
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
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    try (ApiServer api = ApiServer.builder().clock(clock).build();
        ControllerManager controllers = ControllerManager.builder(api).clock(clock)
            .controllers(deployments ? "deployment,replicaset" : "replicaset").start();
        SimulatedCluster cluster = SimulatedCluster.builder(api).clock(clock).nodes(nodes)
            .start()) {
      Map<String, LongAdder> writes = new ConcurrentHashMap<>();
      if (Boolean.getBoolean("simperf.writes")) {
        Set<String> live = ConcurrentHashMap.newKeySet();
        api.addCommitListener((key, object, revision) -> {
          String id = key.groupResource() + "/" + key.namespace() + "/" + key.name();
          String verb;
          if (object.isEmpty()) {
            live.remove(id);
            verb = "delete";
          } else {
            verb = live.add(id) ? "create" : "update";
          }
          writes.computeIfAbsent(key.groupResource() + " " + verb, k -> new LongAdder())
              .increment();
        });
      }
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
      long nanos = System.nanoTime() - start;
      if (!writes.isEmpty()) {
        System.out.println("writes by resource and verb: " + new TreeMap<>(writes));
      }
      return nanos;
    }
  }

  private static long ready(ApiServer api) {
    List<MapValue> pods = api.resources("v1", "pods").namespace("bench").list();
    return pods.stream().filter(p -> Nested.list(p, "status", "conditions").stream()
        .anyMatch(c -> Nested.str(c, "type").equals("Ready")
            && Nested.str(c, "status").equals("True"))).count();
  }
}
