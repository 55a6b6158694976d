/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.cluster.internal.NodeSpec;
import io.apiserver4j.cluster.internal.Settings;
import io.apiserver4j.cluster.kubelet.ContainerLogs;
import io.apiserver4j.cluster.kubelet.Kubelet;
import io.apiserver4j.cluster.scheduler.Scheduler;
import io.apiserver4j.controllers.internal.ControllerDescriptor;
import io.apiserver4j.controllers.internal.ControllerRuntime;
import io.apiserver4j.controllers.internal.NoScheduleTaints;
import io.apiserver4j.core.MapValue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Simulated Nodes and the default scheduler on an {@link ApiServer}, as kwok's fake nodes with a
 * real kube-scheduler: the configured Nodes are registered with kube's status and their Leases
 * renewed on the server clock; Pods of {@code schedulerName: default-scheduler} without a
 * {@code nodeName} are bound to a Node through {@code pods/binding} by kube-scheduler's filters
 * (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit) and
 * least-allocated scoring, or get kube's {@code PodScheduled=False} condition and
 * {@code FailedScheduling} Event; bound Pods become Running and Ready, run-to-completion Pods
 * end Succeeded or Failed, and deleted Pods are removed once their grace period has passed on
 * the clock. Per-Pod behaviour is steered by the annotations of {@link PodSimulation}. Since
 * admission taints every new Node {@code node.kubernetes.io/not-ready}, the cluster also runs
 * the node lifecycle controller's NoSchedule tainting pass, which removes it once the Node is
 * Ready (and taints Nodes by condition and cordon, as kube).
 *
 * <pre>{@code
 * try (ApiServer api = ApiServer.builder().clock(clock).build();
 *     SimulatedCluster cluster = SimulatedCluster.builder(api).clock(clock).nodes(3).start()) {
 *   ... create Pods ...
 *   cluster.awaitIdle(Duration.ofSeconds(10));   // bound, Running and Ready
 * }
 * }</pre>
 *
 * <p>Everything runs on the given clock (the server's): after a test advances it,
 * {@link #awaitIdle} runs what became due. Thread-safe.
 */
public final class SimulatedCluster implements AutoCloseable {
  private final ControllerRuntime runtime;
  private final Kubelet kubelet;
  private final ApiServer api;
  private final ContainerLogs logs;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SimulatedCluster(ControllerRuntime runtime, Kubelet kubelet, ApiServer api,
      ContainerLogs logs) {
    this.runtime = runtime;
    this.kubelet = kubelet;
    this.api = api;
    this.logs = logs;
  }

  /** A builder of a simulated cluster on {@code api}. */
  public static Builder builder(ApiServer api) {
    return new Builder(requireNonNull(api, "api"));
  }

  /** The simulated Nodes' names, in registration order. */
  public List<String> nodes() {
    return kubelet.nodeNames();
  }

  /** Whether {@code node} is one of the simulated Nodes. */
  public boolean simulates(String node) {
    return kubelet.simulates(requireNonNull(node, "node"));
  }

  /**
   * Stops the kubelet of {@code node}, as if it crashed or its machine lost the network: its
   * Lease is no longer renewed nor the Node's status reported, and its Pods stay as they are (a
   * deleted one is not removed). With kube-controller-manager's {@code node-lifecycle-controller}
   * running, the Node's conditions become {@code Unknown} once the clock has passed its 50 s
   * grace period and it gets the {@code node.kubernetes.io/unreachable} taints; the
   * {@code taint-eviction-controller} then deletes its Pods when their tolerations run out (300 s
   * for the default tolerations). Nothing when it is stopped already.
   *
   * <p>Advance the clock in steps shorter than 40 s (the grace period less the Lease renew
   * interval) with {@link #awaitIdle} between them when the node lifecycle controller runs: a
   * single larger jump can look like a silence of the other kubelets too, as it would in a
   * cluster whose control plane saw no heartbeat for that long.
   *
   * @throws IllegalArgumentException if {@code node} is not one of the simulated Nodes
   */
  public void stopKubelet(String node) {
    kubelet.stop(requireNonNull(node, "node"));
  }

  /**
   * Starts the kubelet of {@code node} again: it registers the Node if it was removed, else
   * renews its Lease and reports the Node Ready at once (the node lifecycle controller then
   * removes its taints), and takes up its Pods again (deleted ones are removed). Nothing when it
   * runs.
   *
   * @throws IllegalArgumentException if {@code node} is not one of the simulated Nodes
   */
  public void startKubelet(String node) {
    kubelet.start(requireNonNull(node, "node"));
  }

  /**
   * Removes {@code node}: its kubelet stops and its Node and Lease are deleted, as
   * {@code kubectl delete node} of a machine that is gone. Its Pods stay bound to it (kube's
   * pod garbage collector, not implemented, would delete them). {@link #startKubelet} brings it
   * back, registered anew.
   *
   * @throws IllegalArgumentException if {@code node} is not one of the simulated Nodes
   */
  public void removeNode(String node) {
    kubelet.remove(requireNonNull(node, "node"));
  }

  /**
   * Makes the running kubelet of {@code node} report its condition {@code type} with
   * {@code status}, {@code reason} and {@code message} instead of the healthy one, from now on:
   * for example {@code setNodeCondition("node-1", "Ready", "False", "KubeletNotReady",
   * "container runtime is down")}. Unlike {@link #stopKubelet}, heartbeats go on: its Lease is
   * renewed and its Pods moved on, so kube-controller-manager's {@code node-lifecycle-controller}
   * reads the reported condition rather than a silence; for {@code Ready=False} the Node gets the
   * {@code node.kubernetes.io/not-ready} taints (NoSchedule at once, NoExecute with the
   * controller's next pass) and the {@code taint-eviction-controller} deletes its Pods when their
   * tolerations run out (300 s for the default tolerations). The status is posted at once
   * (kubelet posts a changed status without waiting for its report frequency), by a stopped
   * kubelet when it starts. Setting kubelet's healthy values again ({@code "Ready", "True",
   * "KubeletReady", "kubelet is posting ready status"}) heals the Node.
   *
   * @param type one of kubelet's condition types: MemoryPressure, DiskPressure, PIDPressure,
   *     Ready
   * @param status {@code True}, {@code False} or {@code Unknown}
   * @throws IllegalArgumentException if {@code node} is not one of the simulated Nodes, or
   *     {@code type} or {@code status} is not one of those
   */
  public void setNodeCondition(String node, String type, String status, String reason,
      String message) {
    kubelet.setCondition(requireNonNull(node, "node"), requireNonNull(type, "type"),
        requireNonNull(status, "status"), requireNonNull(reason, "reason"),
        requireNonNull(message, "message"));
  }

  /**
   * Whether the kubelet of {@code node} is stopped.
   *
   * @throws IllegalArgumentException if {@code node} is not one of the simulated Nodes
   */
  public boolean kubeletStopped(String node) {
    return kubelet.stopped(requireNonNull(node, "node"));
  }

  /**
   * What {@code pods/log} returns for {@code pod}'s containers: its {@link PodSimulation#LOG}
   * annotation, else the configured log (empty by default).
   */
  public String log(MapValue pod) {
    return kubelet.log(requireNonNull(pod, "pod"));
  }

  /**
   * Waits, without sleeping, until the scheduler and kubelets are idle: every change in the
   * store seen, no work queued or due by the clock, every Event they recorded written (the
   * scheduler's are written asynchronously, as kube's event broadcaster does), nothing written
   * meanwhile. Work waiting for a
   * later time on the clock does not count.
   *
   * @return whether that happened within {@code timeout}; false too when interrupted
   * @throws IllegalStateException after {@link #close()}
   */
  public boolean awaitIdle(Duration timeout) {
    requireNonNull(timeout, "timeout");
    if (closed.get()) {
      throw new IllegalStateException("the simulated cluster is closed");
    }
    return runtime.awaitIdle(timeout);
  }

  /**
   * Stops the scheduler and kubelets (the Nodes stay in the store) and, unless another source
   * replaced it meanwhile, uninstalls the kubelets' {@code pods/log} source. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      runtime.close();
      if (api.podLogs() == logs) {
        api.installPodLogs(io.apiserver4j.apiserver.kubelet.PodLogs.NONE);
      }
    }
  }

  @Override
  public String toString() {
    return "SimulatedCluster" + nodes();
  }

  /**
   * Configures a {@link SimulatedCluster}. Each option may be set once; a second call or a bad
   * value fails at once with a message naming it. Not thread-safe.
   */
  public static final class Builder {
    private final ApiServer api;
    private final Set<String> set = new HashSet<>();
    private Clock clock = Clock.systemUTC();
    private List<NodeConfig> nodes = NodeConfig.defaults(3);
    private Duration startDuration = Duration.ZERO;
    private Duration runDuration = Duration.ZERO;
    private int exitCode;
    private String log = "";

    private Builder(ApiServer api) {
      this.api = api;
    }

    private void once(String option) {
      if (!set.add(option)) {
        throw new IllegalStateException(option + " was already set");
      }
    }

    /** The server's clock, that every stage runs on; default the UTC system clock. */
    public Builder clock(Clock c) {
      once("clock");
      this.clock = requireNonNull(c, "clock");
      return this;
    }

    /** {@code count} default Nodes {@code node-1} .. {@code node-<count>}; default 3. */
    public Builder nodes(int count) {
      once("nodes");
      this.nodes = NodeConfig.defaults(count);
      return this;
    }

    /**
     * The Nodes, in registration order.
     *
     * @throws IllegalArgumentException if two have the same name
     */
    public Builder nodes(List<NodeConfig> configs) {
      once("nodes");
      List<NodeConfig> copy = List.copyOf(requireNonNull(configs, "configs"));
      Set<String> names = new HashSet<>();
      for (NodeConfig n : copy) {
        if (!names.add(n.name())) {
          throw new IllegalArgumentException("node " + n.name() + " is configured twice");
        }
      }
      this.nodes = copy;
      return this;
    }

    /** Time from binding to Running for every Pod; default 0. */
    public Builder startDuration(Duration d) {
      once("startDuration");
      this.startDuration = nonNegative(d, "startDuration");
      return this;
    }

    /**
     * How long the containers of run-to-completion Pods ({@code restartPolicy} Never or
     * OnFailure) run before they exit; default 0.
     */
    public Builder runDuration(Duration d) {
      once("runDuration");
      this.runDuration = nonNegative(d, "runDuration");
      return this;
    }

    /** The exit code of run-to-completion Pods' containers; default 0 (Succeeded). */
    public Builder exitCode(int code) {
      once("exitCode");
      if (code < 0 || code > 255) {
        throw new IllegalArgumentException("exitCode " + code + " is not in 0..255");
      }
      this.exitCode = code;
      return this;
    }

    /** What {@code pods/log} returns for every container; default empty. */
    public Builder log(String text) {
      once("log");
      this.log = requireNonNull(text, "log");
      return this;
    }

    /**
     * Sets the options a YAML document names (what {@code --simulated-nodes-config} reads):
     *
     * <pre>{@code
     * nodes:                       # or a count: "nodes: 5"
     * - name: worker-a
     *   zone: zone-a
     *   labels: {tier: gold}
     *   capacity: {cpu: "8", memory: 32Gi, pods: "110"}
     *   taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
     * startDuration: 2s            # Go durations
     * runDuration: 30s
     * exitCode: 0
     * log: "hello\n"
     * }</pre>
     *
     * @throws IllegalArgumentException naming the first field that is unknown or malformed
     * @throws IllegalStateException if an option it names was already set
     */
    public Builder configuration(String yaml) {
      requireNonNull(yaml, "yaml");
      io.apiserver4j.core.Value doc;
      try {
        doc = io.apiserver4j.core.Yaml.read(yaml);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("the simulated cluster configuration is not YAML: "
            + e.getMessage(), e);
      }
      if (!(doc instanceof io.apiserver4j.core.MapValue map)) {
        throw new IllegalArgumentException("the simulated cluster configuration is not a map");
      }
      for (int i = 0; i < map.size(); i++) {
        String key = map.keyAt(i);
        io.apiserver4j.core.Value v = map.valueAt(i);
        switch (key) {
          case "nodes" -> {
            if (v.kind() == io.apiserver4j.core.Value.Kind.INTEGER) {
              nodes((int) io.apiserver4j.core.Nested.integer(v));
            } else {
              List<NodeConfig> list = new ArrayList<>();
              for (io.apiserver4j.core.Value n : io.apiserver4j.core.Nested.list(v)) {
                list.add(node(n));
              }
              nodes(list);
            }
          }
          case "startDuration" -> startDuration(duration(key, v));
          case "runDuration" -> runDuration(duration(key, v));
          case "exitCode" -> exitCode((int) io.apiserver4j.core.Nested.integer(v));
          case "log" -> log(io.apiserver4j.core.Nested.str(v));
          default -> throw new IllegalArgumentException("unknown field \"" + key
              + "\" in the simulated cluster configuration");
        }
      }
      return this;
    }

    private static NodeConfig node(io.apiserver4j.core.Value n) {
      String name = io.apiserver4j.core.Nested.str(n, "name");
      NodeConfig.Builder b = NodeConfig.builder(name);
      io.apiserver4j.core.MapValue m = io.apiserver4j.core.Nested.map(n);
      for (int i = 0; i < m.size(); i++) {
        String key = m.keyAt(i);
        io.apiserver4j.core.Value v = m.valueAt(i);
        switch (key) {
          case "name" -> { }
          case "zone" -> b.zone(io.apiserver4j.core.Nested.str(v));
          case "labels" -> io.apiserver4j.core.Nested.map(v).forEach((k, x) ->
              b.label(k, io.apiserver4j.core.Nested.str(x)));
          case "capacity" -> io.apiserver4j.core.Nested.map(v).forEach((k, x) ->
              b.capacity(k, x.kind() == io.apiserver4j.core.Value.Kind.STRING
                  ? io.apiserver4j.core.Nested.str(x)
                  : Long.toString(io.apiserver4j.core.Nested.integer(x))));
          case "taints" -> {
            for (io.apiserver4j.core.Value t : io.apiserver4j.core.Nested.list(v)) {
              b.taint(io.apiserver4j.core.Nested.str(t, "key"),
                  io.apiserver4j.core.Nested.str(t, "value"),
                  io.apiserver4j.core.Nested.str(t, "effect"));
            }
          }
          default -> throw new IllegalArgumentException("unknown field \"" + key
              + "\" in node " + name + " of the simulated cluster configuration");
        }
      }
      return b.build();
    }

    private static Duration duration(String field, io.apiserver4j.core.Value v) {
      try {
        return io.apiserver4j.core.GoDurations.parse(io.apiserver4j.core.Nested.str(v));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(field + ": \"" + v + "\" is not a duration", e);
      }
    }

    private static Duration nonNegative(Duration d, String option) {
      requireNonNull(d, option);
      if (d.isNegative()) {
        throw new IllegalArgumentException(option + " " + d + " is negative");
      }
      return d;
    }

    /**
     * Registers the Nodes, starts the scheduler and kubelets and installs their logs as the
     * server's {@code pods/log} source ({@link ApiServer#installPodLogs}).
     *
     * @throws io.apiserver4j.core.errors.StatusException if the server refuses a Node or Lease
     */
    public SimulatedCluster start() {
      List<NodeSpec> specs = new ArrayList<>();
      for (NodeConfig n : nodes) {
        specs.add(new NodeSpec(n.name(), n.labels(), n.zone(), n.capacity(), n.taints().stream()
            .map(t -> new NodeSpec.Taint(t.key(), t.value(), t.effect())).toList()));
      }
      Settings settings = new Settings(specs, startDuration, runDuration, exitCode, log);
      AtomicReference<Kubelet> kubelet = new AtomicReference<>();
      List<ControllerDescriptor> parts = new ArrayList<>();
      parts.add(new ControllerDescriptor("kubelet", List.of(), true, Optional.of(c -> {
        Kubelet k = new Kubelet(c, settings);
        kubelet.set(k);
        return k;
      })));
      parts.add(new ControllerDescriptor("node-noschedule-taints", List.of(), true,
          Optional.of(NoScheduleTaints::new)));
      parts.add(new ControllerDescriptor("default-scheduler", List.of(), true,
          Optional.of(Scheduler::new)));
      ControllerRuntime runtime = new ControllerRuntime(api, clock, parts, Map.of());
      try {
        runtime.start();
      } catch (RuntimeException e) {
        runtime.close();
        throw e;
      }
      // the server's pods/log reads the simulated kubelets from now on
      ContainerLogs logs = new ContainerLogs(kubelet.get(), clock);
      api.installPodLogs(logs);
      return new SimulatedCluster(runtime, kubelet.get(), api, logs);
    }
  }
}
