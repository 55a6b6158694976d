/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.kubelet;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.cluster.internal.Annotations;
import io.apiserver4j.cluster.internal.NodeSpec;
import io.apiserver4j.cluster.internal.Settings;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.cluster.internal.Obj;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated kubelets of every configured Node, in one controller: each Node is registered
 * with kube's status and its Lease in {@code kube-node-lease} renewed every 10 s of server time
 * (kubelet's {@code renewInterval}, a quarter of the 40 s lease), the Node status reported every
 * 5 minutes ({@code nodeStatusReportFrequency}); each Pod bound to one of the Nodes goes through
 * kwok's default stages: Running and Ready after its start duration, then, for run-to-completion
 * Pods, Succeeded or Failed after its run duration; a Pod being deleted is removed (delete with
 * grace period 0 and a UID precondition, as kubelet's status manager) once the clock reaches its
 * {@code deletionTimestamp}. Writes are made as {@code system:node:<name>} with field manager
 * {@code kubelet}.
 */
public final class Kubelet implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(Kubelet.class);
  static final String FIELD_MANAGER = "kubelet";
  static final Duration RENEW_INTERVAL = Duration.ofSeconds(10);
  static final Duration STATUS_REPORT = Duration.ofMinutes(5);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  private final ControllerContext context;
  private final Settings settings;
  private final Map<String, Integer> nodeIndex = new HashMap<>();
  private final Map<String, NodeSpec> nodes = new HashMap<>();
  private final Informer pods;
  private final WorkQueue<String> queue;
  /** Per Node, the host numbers of its pod CIDR in use, by Pod UID. */
  private final Map<String, Map<String, Integer>> addresses = new ConcurrentHashMap<>();
  /** The Nodes whose kubelet is stopped. */
  private final Set<String> stopped = ConcurrentHashMap.newKeySet();
  /**
   * Per Node, the number of its kubelet's starts and stops: a lease or status timer armed
   * before one of them is dropped, so a restarted kubelet has one heartbeat, not two.
   */
  private final Map<String, AtomicInteger> epochs = new ConcurrentHashMap<>();
  /** Per Node, the conditions a test made its kubelet report instead of healthy ones. */
  private final Map<String, Map<String, NodeObjects.Condition>> conditions =
      new ConcurrentHashMap<>();
  private final VolumesInUse volumesInUse;
  /** Per Node, the {@code volumesInUse} its kubelet last reported. */
  private final Map<String, List<String>> reportedInUse = new ConcurrentHashMap<>();
  private Workers workers;

  /** The kubelets of {@code settings}' Nodes. */
  public Kubelet(ControllerContext context, Settings settings) {
    this.context = context;
    this.settings = settings;
    for (int i = 0; i < settings.nodes().size(); i++) {
      NodeSpec n = settings.nodes().get(i);
      if (nodes.put(n.name(), n) != null) {
        throw new IllegalArgumentException("node " + n.name() + " is configured twice");
      }
      nodeIndex.put(n.name(), i);
      epochs.put(n.name(), new AtomicInteger());
      addresses.put(n.name(), new HashMap<>());
      conditions.put(n.name(), new ConcurrentHashMap<>());
    }
    this.queue = context.newQueue("kubelet");
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    pods.addHandler(new PodHandler());
    this.volumesInUse = new VolumesInUse(context, pods, node -> {
      if (nodes.containsKey(node)) {
        queue.add("inuse:" + node);
      }
    });
  }

  /** The user kubelet of {@code node} makes its requests as. */
  static UserInfo nodeUser(String node) {
    return UserInfo.of("system:node:" + node, "system:nodes", "system:authenticated");
  }

  @Override
  public void start() {
    ensureLeaseNamespace();
    for (NodeSpec n : settings.nodes()) {
      register(n);
    }
    workers = context.startWorkers("kubelet", queue, 2, this::sync);
  }

  @Override
  public void close() {
    if (workers != null) {
      workers.close();
    } else {
      queue.shutDown();
    }
  }

  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      if (ours(pod)) {
        queue.add(key(pod));
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      if (ours(pod)) {
        queue.add(key(pod));
      }
    }

    @Override
    public void onDelete(MapValue pod) {
      if (ours(pod)) {
        queue.add(key(pod));
      }
    }
  }

  private boolean ours(MapValue pod) {
    return nodes.containsKey(Nested.str(pod, "spec", "nodeName"));
  }

  private static String key(MapValue pod) {
    return "pod:" + Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name");
  }

  // ---- Nodes and Leases ----

  private void ensureLeaseNamespace() {
    ResourceClient namespaces = context.api().resources(NAMESPACES);
    if (namespaces.find(NodeObjects.LEASE_NAMESPACE).isPresent()) {
      return;
    }
    try {
      // kube-apiserver creates it at startup (its system namespaces controller)
      namespaces.create(Obj.map("apiVersion", "v1", "kind", "Namespace",
          "metadata", Obj.map("name", NodeObjects.LEASE_NAMESPACE)));
    } catch (AlreadyExistsException e) {
      // created meanwhile
    }
  }

  private ResourceClient client(GroupVersionResource resource, String node) {
    return context.api().resources(resource).user(nodeUser(node)).fieldManager(FIELD_MANAGER);
  }

  /** kubelet's {@code registerWithAPIServer}, then the first Lease. */
  private void register(NodeSpec n) {
    Instant now = context.clock().instant();
    int index = nodeIndex.get(n.name());
    MapValue node;
    try {
      node = client(NODES, n.name()).create(NodeObjects.node(n, index, now,
          Map.copyOf(conditions.get(n.name()))));
    } catch (AlreadyExistsException e) {
      node = client(NODES, n.name()).get(n.name());
    }
    if (Nested.list(node, "status", "conditions").isEmpty()
        || !Nested.has(node, "status", "nodeInfo")) {
      reportStatus(n.name());
    }
    renewLease(n.name(), Meta.metaString(node, "uid"));
    String status = item("status:", n.name());
    context.timers().schedule(STATUS_REPORT, () -> queue.add(status));
  }

  private void renewLease(String node, String nodeUid) {
    Instant now = context.clock().instant();
    ResourceClient leases = client(LEASES, node).namespace(NodeObjects.LEASE_NAMESPACE);
    try {
      leases.patch(node, PatchType.MERGE_PATCH, Json.write(Obj.map("spec",
          Obj.map("holderIdentity", node, "renewTime", Obj.microTime(now)))));
    } catch (NotFoundException e) {
      leases.create(NodeObjects.lease(node, nodeUid, now));
    }
    String lease = item("lease:", node);
    context.timers().schedule(RENEW_INTERVAL, () -> queue.add(lease));
  }

  /**
   * kubelet's {@code tryUpdateNodeStatus}: every condition's heartbeat is now, and the volumes
   * its Pods mount in {@code volumesInUse}.
   */
  private void reportStatus(String node) {
    MapValue current = client(NODES, node).get(node);
    List<String> inUse = volumesInUse.of(node);
    MapValue status = NodeObjects.status(nodes.get(node), nodeIndex.get(node),
        context.clock().instant(), Nested.list(current, "status", "conditions"),
        Map.copyOf(conditions.get(node)))
        .with("volumesInUse", inUse.isEmpty() ? Value.nullValue()
            : io.apiserver4j.core.ListValue.of(inUse.stream().map(Value::of).toList()));
    reportedInUse.put(node, inUse);
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH, NODES).name(node)
        .subresource("status").patch(PatchType.STRATEGIC_MERGE_PATCH,
            Json.write(Obj.map("status", status)))
        .user(nodeUser(node)).fieldManager(FIELD_MANAGER).build()).orThrow();
  }

  // ---- Pods ----

  private Outcome sync(String item) {
    if (item.startsWith("lease:")) {
      String node = current(item);
      if (node == null) {
        return Outcome.FORGET;
      }
      String uid = client(NODES, node).find(node).map(n -> Meta.metaString(n, "uid")).orElse("");
      renewLease(node, uid);
      return Outcome.FORGET;
    }
    if (item.startsWith("status:")) {
      String node = current(item);
      if (node == null) {
        return Outcome.FORGET;
      }
      reportStatus(node);
      String status = item("status:", node);
      context.timers().schedule(STATUS_REPORT, () -> queue.add(status));
      return Outcome.FORGET;
    }
    if (item.startsWith("inuse:")) {
      // kubelet posts a changed status at its next heartbeat rather than in 5 minutes
      String node = item.substring("inuse:".length());
      if (!stopped.contains(node)
          && !volumesInUse.of(node).equals(reportedInUse.getOrDefault(node, List.of()))
          && client(NODES, node).find(node).isPresent()) {
        reportStatus(node);
      }
      return Outcome.FORGET;
    }
    if (item.startsWith("report:")) {
      String node = item.substring("report:".length());
      if (!stopped.contains(node) && client(NODES, node).find(node).isPresent()) {
        reportStatus(node);
      }
      return Outcome.FORGET;
    }
    String key = item.substring("pod:".length());
    int slash = key.indexOf('/');
    Optional<MapValue> cached = pods.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      release(key);
      return Outcome.FORGET;
    }
    MapValue pod = cached.get();
    String node = Nested.str(pod, "spec", "nodeName");
    if (!nodes.containsKey(node) || stopped.contains(node)) {
      // a stopped kubelet does nothing; starting it queues its Pods again
      return Outcome.FORGET;
    }
    Instant now = context.clock().instant();
    if (Meta.hasMeta(pod, "deletionTimestamp")) {
      Instant due = Instant.parse(Meta.metaString(pod, "deletionTimestamp"));
      if (now.isBefore(due)) {
        queue.addAt(item, due);
        return Outcome.FORGET;
      }
      remove(pod, node);
      return Outcome.FORGET;
    }
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return Outcome.FORGET;
    }
    if (!Nested.has(pod, "status", "startTime")) {
      Instant due = boundAt(pod).plus(duration(pod, Annotations.START_DURATION,
          settings.startDuration()));
      if (now.isBefore(due)) {
        queue.addAt(item, due);
        return Outcome.FORGET;
      }
      int index = nodeIndex.get(node);
      String podIp = Nested.bool(pod, "spec", "hostNetwork") ? NodeObjects.internalIp(index)
          : podIp(node, index, Meta.metaString(pod, "uid"));
      writeStatus(pod, node, PodStatuses.running(pod, NodeObjects.internalIp(index), podIp,
          now));
      return Outcome.FORGET;
    }
    if (PodStatuses.runsToCompletion(pod)) {
      Instant started = Instant.parse(Nested.str(pod, "status", "startTime"));
      Instant due = started.plus(duration(pod, Annotations.RUN_DURATION,
          settings.runDuration()));
      if (now.isBefore(due)) {
        queue.addAt(item, due);
      } else {
        writeStatus(pod, node, PodStatuses.terminated(pod, exitCode(pod), now));
        return Outcome.FORGET;
      }
    }
    if (PodStatuses.readinessChanged(pod)) {
      writeStatus(pod, node, PodStatuses.withReadiness(pod, now));
    }
    return Outcome.FORGET;
  }

  /** When the Pod was bound: its PodScheduled transition, else its creation. */
  private static Instant boundAt(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("PodScheduled")
          && !Nested.str(c, "lastTransitionTime").isEmpty()) {
        return Instant.parse(Nested.str(c, "lastTransitionTime"));
      }
    }
    String created = Meta.metaString(pod, "creationTimestamp");
    return created.isEmpty() ? Instant.EPOCH : Instant.parse(created);
  }

  private static Duration duration(MapValue pod, String annotation, Duration fallback) {
    String text = Meta.annotations(pod).get(annotation);
    if (text == null) {
      return fallback;
    }
    Optional<Duration> d;
    try {
      d = Optional.of(io.apiserver4j.core.GoDurations.parse(text)).filter(x -> !x.isNegative());
    } catch (IllegalArgumentException e) {
      d = Optional.empty();
    }
    if (d.isEmpty()) {
      LOG.warn("pod {}/{}: annotation {}=\"{}\" is not a duration; using {}",
          Meta.metaString(pod, "namespace"), Meta.metaString(pod, "name"), annotation, text,
          fallback);
    }
    return d.orElse(fallback);
  }

  private int exitCode(MapValue pod) {
    String text = Meta.annotations(pod).get(Annotations.EXIT_CODE);
    if (text == null) {
      return settings.exitCode();
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      LOG.warn("pod {}/{}: annotation {}=\"{}\" is not an exit code; using {}",
          Meta.metaString(pod, "namespace"), Meta.metaString(pod, "name"),
          Annotations.EXIT_CODE, text, settings.exitCode());
      return settings.exitCode();
    }
  }

  private void writeStatus(MapValue pod, String node, MapValue status) {
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
        .namespace(Meta.metaString(pod, "namespace")).name(Meta.metaString(pod, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(FIELD_MANAGER).user(nodeUser(node))
        .body(pod.with("status", status)).build()).orThrow();
  }

  /** kubelet's final delete once the Pod's containers are gone. */
  private void remove(MapValue pod, String node) {
    try {
      client(PODS, node).namespace(Meta.metaString(pod, "namespace"))
          .delete(Meta.metaString(pod, "name"), DeleteOptions.builder().gracePeriodSeconds(0)
              .preconditionUid(Meta.metaString(pod, "uid")).build());
    } catch (NotFoundException e) {
      // already gone
    } catch (StatusException e) {
      if (e.status().code() != 409) {
        throw e;
      }
      // a Pod of the same name replaced it: not ours to delete
    }
  }

  /** The lowest free address of the Node's pod CIDR (from .2), kept for the Pod's UID. */
  private String podIp(String node, int index, String uid) {
    Map<String, Integer> used = addresses.get(node);
    int host;
    synchronized (used) {
      Integer have = used.get(uid);
      if (have != null) {
        host = have;
      } else {
        TreeSet<Integer> taken = new TreeSet<>(used.values());
        host = 2;
        while (taken.contains(host)) {
          host++;
        }
        used.put(uid, host);
      }
    }
    String cidr = NodeObjects.podCidr(index);
    String prefix = cidr.substring(0, cidr.lastIndexOf('.'));
    return prefix + "." + host;
  }

  private void release(String key) {
    // the Pod is gone: free the addresses of UIDs no cached Pod has any more
    java.util.Set<String> live = new java.util.HashSet<>();
    for (MapValue p : pods.list()) {
      live.add(Meta.metaString(p, "uid"));
    }
    for (Map<String, Integer> used : addresses.values()) {
      synchronized (used) {
        used.keySet().retainAll(live);
      }
    }
  }

  /** The log {@code pods/log} returns for the Pod: its annotation, else the configured one. */
  public String log(MapValue pod) {
    String text = Meta.annotations(pod).get(Annotations.LOG);
    return text != null ? text : settings.log();
  }

  /** Whether {@code node} is one of the simulated Nodes. */
  public boolean simulates(String node) {
    return nodes.containsKey(node);
  }

  /** A heartbeat item ({@code kind} "lease:" or "status:") of {@code node}'s current epoch. */
  private String item(String kind, String node) {
    return kind + epochs.get(node).get() + ":" + node;
  }

  /** The Node of a heartbeat item, or null when its kubelet stopped or restarted since. */
  private String current(String item) {
    String rest = item.substring(item.indexOf(':') + 1);
    int colon = rest.indexOf(':');
    String node = rest.substring(colon + 1);
    boolean live = !stopped.contains(node)
        && Integer.parseInt(rest.substring(0, colon)) == epochs.get(node).get();
    return live ? node : null;
  }

  /**
   * Stops the kubelet of {@code node}: it no longer renews its Lease, reports the Node's status
   * or moves its Pods on (a deleted Pod stays until it starts again), as a kubelet that crashed
   * or lost its network. Nothing when it is stopped already.
   *
   * @throws IllegalArgumentException if {@code node} is not simulated
   */
  public void stop(String node) {
    requireSimulated(node);
    if (stopped.add(node)) {
      epochs.get(node).incrementAndGet();
    }
  }

  /**
   * Starts the kubelet of {@code node} again: it registers the Node if it is gone, else renews
   * its Lease and reports its status (Ready) at once, and takes up its Pods. Nothing when it is
   * running.
   *
   * @throws IllegalArgumentException if {@code node} is not simulated
   */
  public void start(String node) {
    requireSimulated(node);
    if (!stopped.remove(node)) {
      return;
    }
    epochs.get(node).incrementAndGet();
    if (client(NODES, node).find(node).isEmpty()) {
      register(nodes.get(node));
    } else {
      queue.add(item("lease:", node));
      queue.add(item("status:", node));
    }
    for (MapValue p : pods.list()) {
      if (Nested.str(p, "spec", "nodeName").equals(node)) {
        queue.add(key(p));
      }
    }
  }

  /**
   * Stops the kubelet of {@code node} and deletes its Node and Lease, as an administrator's
   * {@code kubectl delete node} of a machine that is gone; its Pods stay bound to it.
   *
   * @throws IllegalArgumentException if {@code node} is not simulated
   */
  public void remove(String node) {
    stop(node);
    try {
      context.api().resources(NODES).delete(node);
    } catch (NotFoundException e) {
      // gone already
    }
    try {
      context.api().resources(LEASES).namespace(NodeObjects.LEASE_NAMESPACE).delete(node);
    } catch (NotFoundException e) {
      // never renewed, or gone already
    }
  }

  /**
   * Makes the kubelet of {@code node} report its condition {@code type} (one of kubelet's
   * MemoryPressure, DiskPressure, PIDPressure and Ready) with {@code status} ("True", "False"
   * or "Unknown"), {@code reason} and {@code message} from now on, as a running kubelet whose
   * container runtime or resources fail; its Lease stays renewed. A running kubelet posts the
   * changed status at once (kubelet posts a changed status without waiting for its report
   * frequency); a stopped one when it starts. Reporting kubelet's healthy values again
   * ({@code Ready} "True", {@code KubeletReady}, ...) is how a test heals it.
   *
   * @throws IllegalArgumentException if {@code node} is not simulated, {@code type} is not one
   *     of kubelet's condition types or {@code status} not a condition status
   */
  public void setCondition(String node, String type, String status, String reason,
      String message) {
    requireSimulated(node);
    if (!NodeObjects.CONDITION_TYPES.contains(type)) {
      throw new IllegalArgumentException("condition type " + type + " is not one of "
          + NodeObjects.CONDITION_TYPES);
    }
    if (!List.of("True", "False", "Unknown").contains(status)) {
      throw new IllegalArgumentException("condition status " + status
          + " is not True, False or Unknown");
    }
    conditions.get(node).put(type, new NodeObjects.Condition(status, reason, message));
    if (!stopped.contains(node)) {
      // an item of its own: the periodic report keeps its 5 min cadence
      queue.add("report:" + node);
    }
  }

  /** Whether the kubelet of {@code node} is stopped. */
  public boolean stopped(String node) {
    requireSimulated(node);
    return stopped.contains(node);
  }

  private void requireSimulated(String node) {
    if (!nodes.containsKey(node)) {
      throw new IllegalArgumentException("node " + node + " is not simulated");
    }
  }

  /** The configured Nodes' names, in order. */
  public List<String> nodeNames() {
    return settings.nodes().stream().map(NodeSpec::name).toList();
  }
}
