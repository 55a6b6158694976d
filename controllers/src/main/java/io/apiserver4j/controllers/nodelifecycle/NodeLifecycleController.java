/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.nodelifecycle;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.NoScheduleTaints;
import io.apiserver4j.controllers.internal.PodConditions;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's node lifecycle controller ({@code pkg/controller/nodelifecycle}), as user
 * {@code system:serviceaccount:kube-system:node-controller}, with kube-controller-manager's
 * defaults, on the server clock:
 *
 * <ul>
 *   <li>every {@value #MONITOR_PERIOD_SECONDS} s ({@code --node-monitor-period}) it checks each
 *       Node's health signals: a new heartbeat of its Ready condition or a renewal of its Lease
 *       in {@code kube-node-lease}. A Node without either for
 *       {@value #MONITOR_GRACE_SECONDS} s ({@code --node-monitor-grace-period}; a Node that
 *       never posted a Ready condition, {@value #STARTUP_GRACE_SECONDS} s) gets its Ready,
 *       MemoryPressure, DiskPressure and PIDPressure conditions set to {@code Unknown}, reason
 *       {@code NodeStatusUnknown}, message "Kubelet stopped posting node status." (absent ones:
 *       {@code NodeStatusNeverUpdated}, "Kubelet never posted node status.");</li>
 *   <li>when a Node stops being Ready, its Pods' Ready condition is set False
 *       ({@code MarkPodsNotReady}, Event {@code NodeNotReady} on each) and an Event
 *       {@code NodeNotReady} is recorded on the Node; a Pod bound to an unready Node later gets
 *       the same;</li>
 *   <li>a Node whose Ready condition it last saw False or Unknown is queued for the
 *       {@code NoExecute} taint {@code node.kubernetes.io/not-ready} or {@code unreachable}
 *       (with {@code timeAdded}), the two kept mutually exclusive, and both removed once it is
 *       Ready ({@code doNoExecuteTaintingPass}); the taints are added at kube's rate per zone:
 *       0.1 Nodes/s normally, none in a partially disrupted zone of at most 50 Nodes
 *       ({@code --secondary-node-eviction-rate} 0.01 above), and none at all, with every
 *       NoExecute taint of this controller removed, while every zone is fully disrupted
 *       (kube's zone states, {@code --unhealthy-zone-threshold} 0.55);</li>
 *   <li>the {@code NoSchedule} taints of Node conditions and cordon ({@link NoScheduleTaints}).</li>
 * </ul>
 *
 * <p>Events go to the {@code default} namespace from component {@code node-controller}:
 * {@code RegisteredNode}, {@code RemovingNode} and {@code NodeNotReady}. kube's label
 * reconciliation of the beta OS and arch labels is done too. The health state is kept by one
 * worker, so one pass never races another.
 */
public final class NodeLifecycleController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycleController.class);
  /** kube's {@code --node-monitor-period} default. */
  static final long MONITOR_PERIOD_SECONDS = 5;
  /** kube's {@code --node-monitor-grace-period} default since 1.32. */
  static final long MONITOR_GRACE_SECONDS = 50;
  /** kube's {@code --node-startup-grace-period} default. */
  static final long STARTUP_GRACE_SECONDS = 60;
  /** kube's {@code --node-eviction-rate} default. */
  static final double EVICTION_QPS = 0.1;
  /** kube's {@code --secondary-node-eviction-rate} default. */
  static final double SECONDARY_EVICTION_QPS = 0.01;
  /** kube's {@code --large-cluster-size-threshold} default. */
  static final int LARGE_CLUSTER_THRESHOLD = 50;
  /** kube's {@code --unhealthy-zone-threshold} default. */
  static final double UNHEALTHY_ZONE_THRESHOLD = 0.55;
  static final String NOT_READY = "node.kubernetes.io/not-ready";
  static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  private static final String EXCLUDE_DISRUPTION = "node.kubernetes.io/exclude-disruption";
  private static final List<String> UNKNOWN_ON_SILENCE =
      List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final String LEASE_NAMESPACE = "kube-node-lease";
  private static final String MONITOR = "monitor";
  private static final String TAINT = "taint";
  private static final String POD = "pod:";
  private static final String LABELS = "labels:";

  enum ZoneState { INITIAL, NORMAL, FULL_DISRUPTION, PARTIAL_DISRUPTION }

  /** What kube's {@code nodeHealthData} keeps per Node. */
  private static final class Health {
    Instant probe;
    Instant readyTransition;
    /** The Ready condition last seen, null when the Node had none. */
    Value ready;
    /** The Lease's renew time last seen, null before any. */
    Instant leaseRenew;
  }

  /** What {@code tryUpdateNodeHealth} found: the Ready condition before and after its update. */
  private record Observed(Value observed, Value current, MapValue node) {}

  private final ControllerContext context;
  private final UserInfo user;
  private final EventRecorder recorder;
  private final Informer nodes;
  private final Informer leases;
  private final Informer pods;
  private final WorkQueue<String> queue;
  private final NoScheduleTaints noScheduleTaints;
  // the state below is the one worker's
  private final Map<String, MapValue> knownNodes = new LinkedHashMap<>();
  private final Map<String, Health> health = new HashMap<>();
  private final Map<String, ZoneState> zoneStates = new LinkedHashMap<>();
  private final Map<String, ZoneTainter> tainters = new LinkedHashMap<>();
  private final Set<String> nodesToRetry = new HashSet<>();
  private Workers workers;

  private NodeLifecycleController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("node-controller");
    this.recorder = new EventRecorder(context, user, "node-controller");
    this.queue = context.newQueue("node_lifecycle_controller");
    context.onReset(this::forget);
    this.noScheduleTaints = new NoScheduleTaints(context);
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.leases = context.informers().informer(new GroupResource("coordination.k8s.io",
        "leases"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    nodes.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue node) {
        queue.add(LABELS + Meta.metaString(node, "name"));
      }

      @Override
      public void onUpdate(MapValue old, MapValue node) {
        queue.add(LABELS + Meta.metaString(node, "name"));
      }

      @Override
      public void onDelete(MapValue node) {
        // the next monitor pass notices
      }
    });
    pods.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue pod) {
        podUpdated(null, pod);
      }

      @Override
      public void onUpdate(MapValue old, MapValue pod) {
        podUpdated(old, pod);
      }

      @Override
      public void onDelete(MapValue pod) {
        // nothing to mark
      }
    });
  }

  /** The {@code node-lifecycle-controller}. */
  public static Controller create(ControllerContext context) {
    return new NodeLifecycleController(context);
  }

  @Override
  public void start() {
    noScheduleTaints.start();
    queue.add(MONITOR);
    workers = context.startWorkers("node_lifecycle_controller", queue, 1, this::process);
  }

  @Override
  public void resetInPlace() {
    queue.add(MONITOR);
  }

  /**
   * Forgets what the monitor passes learnt, as a new controller: a reset in place runs it while
   * the one worker that owns this state is paused.
   */
  private void forget() {
    knownNodes.clear();
    health.clear();
    zoneStates.clear();
    tainters.clear();
    nodesToRetry.clear();
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
    noScheduleTaints.close();
  }

  /** kube's {@code podUpdated}: a Pod newly bound (or moved) to a Node is looked at. */
  private void podUpdated(MapValue old, MapValue pod) {
    String node = Nested.str(pod, "spec", "nodeName");
    if (!node.isEmpty() && (old == null || !node.equals(Nested.str(old, "spec", "nodeName")))) {
      queue.add(POD + Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name"));
    }
  }

  private Outcome process(String item) {
    Instant now = context.clock().instant();
    if (item.equals(MONITOR)) {
      try {
        monitorNodeHealth(now);
        noExecuteTaintingPass(now);
      } finally {
        // kube's wait.Until: the next pass a period later, whatever this one did
        queue.addAt(MONITOR, now.plusSeconds(MONITOR_PERIOD_SECONDS));
      }
      return Outcome.FORGET;
    }
    if (item.equals(TAINT)) {
      noExecuteTaintingPass(now);
      return Outcome.FORGET;
    }
    if (item.startsWith(LABELS)) {
      reconcileNodeLabels(item.substring(LABELS.length()));
      return Outcome.FORGET;
    }
    String key = item.substring(POD.length());
    int slash = key.indexOf('/');
    return processPod(key.substring(0, slash), key.substring(slash + 1), now);
  }

  // ---- monitorNodeHealth ----

  private void monitorNodeHealth(Instant now) {
    List<MapValue> all = nodes.list().stream()
        .sorted(Comparator.comparing(n -> Meta.metaString(n, "name"))).toList();
    Map<String, MapValue> byName = new LinkedHashMap<>();
    for (MapValue n : all) {
      byName.put(Meta.metaString(n, "name"), n);
    }
    for (MapValue n : all) {
      String name = Meta.metaString(n, "name");
      if (!knownNodes.containsKey(name)) {
        recordNodeEvent(n, "RegisteredNode", "Registered Node " + name + " in Controller");
        knownNodes.put(name, n);
        addTainterForZone(n, now);
        markNodeAsReachable(n);
      } else if (!zoneStates.containsKey(zoneKey(n))) {
        addTainterForZone(n, now);
      }
    }
    for (String name : new ArrayList<>(knownNodes.keySet())) {
      if (!byName.containsKey(name)) {
        MapValue gone = knownNodes.remove(name);
        recordNodeEvent(gone, "RemovingNode", "Removing Node " + name + " from Controller");
        health.remove(name);
        nodesToRetry.remove(name);
      }
    }
    Map<String, List<Value>> zoneConditions = new LinkedHashMap<>();
    for (MapValue n : all) {
      String name = Meta.metaString(n, "name");
      Observed o;
      try {
        o = tryUpdateNodeHealth(n, now);
      } catch (ConflictException e) {
        // kube retries with the Node read again
        Optional<MapValue> fresh = context.client(NODES, user).find(name);
        if (fresh.isEmpty()) {
          continue;
        }
        try {
          o = tryUpdateNodeHealth(fresh.get(), now);
        } catch (StatusException again) {
          LOG.info("Update health of Node {} from Controller error, Skipping - no pods will be "
              + "evicted: {}", name, again.getMessage());
          continue;
        }
      } catch (NotFoundException e) {
        continue;
      }
      MapValue node = o.node();
      if (!Meta.labels(node).containsKey(EXCLUDE_DISRUPTION)) {
        zoneConditions.computeIfAbsent(zoneKey(node), k -> new ArrayList<>()).add(o.current());
      }
      if (o.current() != null) {
        processTaintBaseEviction(node, o.observed(), now);
        boolean becameUnready = !status(o.current()).equals("True")
            && status(o.observed()).equals("True");
        boolean retry = nodesToRetry.contains(name) && !status(o.observed()).equals("True");
        if (becameUnready) {
          recordNodeEvent(node, "NodeNotReady", "Node " + name + " status is now: NodeNotReady");
        }
        if (becameUnready || retry) {
          if (!markPodsNotReady(podsOn(name), name, now)) {
            nodesToRetry.add(name);
            continue;
          }
        }
      }
      nodesToRetry.remove(name);
    }
    handleDisruption(zoneConditions, all, now);
  }

  private static String status(Value condition) {
    return condition == null ? "" : Nested.str(condition, "status");
  }

  private static Value readyCondition(MapValue node) {
    for (Value c : Nested.list(node, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return c;
      }
    }
    return null;
  }

  /** kube's {@code tryUpdateNodeHealth}. */
  private Observed tryUpdateNodeHealth(MapValue node, Instant now) {
    String name = Meta.metaString(node, "name");
    Health h = health.get(name);
    Value current = readyCondition(node);
    Value observed;
    long grace;
    Instant created = Pods.time(node, "metadata", "creationTimestamp").orElse(Instant.EPOCH);
    if (current == null) {
      // never posted: a made-up Unknown condition from the Node's creation
      observed = MapValue.ofEntries("type", Value.of("Ready"), "status", Value.of("Unknown"),
          "lastHeartbeatTime", Value.of(Meta.formatTime(created)),
          "lastTransitionTime", Value.of(Meta.formatTime(created)));
      grace = STARTUP_GRACE_SECONDS;
      if (h != null) {
        h.ready = null;
      } else {
        h = new Health();
        h.probe = created;
        h.readyTransition = created;
      }
    } else {
      observed = current;
      grace = MONITOR_GRACE_SECONDS;
    }
    Value saved = h == null ? null : h.ready;
    Instant savedLease = h == null ? null : h.leaseRenew;
    if (h == null) {
      h = fresh(current, now);
    } else if (saved == null && current != null) {
      h = fresh(current, now);
    } else if (saved != null && current == null) {
      LOG.error("ReadyCondition was removed from Status of Node {}", name);
      h = fresh(null, now);
    } else if (saved != null && !Nested.str(saved, "lastHeartbeatTime")
        .equals(Nested.str(current, "lastHeartbeatTime"))) {
      Instant transition = Nested.str(saved, "lastTransitionTime")
          .equals(Nested.str(current, "lastTransitionTime")) ? h.readyTransition : now;
      h = fresh(current, now);
      h.readyTransition = transition;
    }
    Optional<Instant> renewed = leases.get(LEASE_NAMESPACE, name)
        .flatMap(l -> Pods.time(l, "spec", "renewTime"));
    if (renewed.isPresent() && (savedLease == null || savedLease.isBefore(renewed.get()))) {
      h.leaseRenew = renewed.get();
      h.probe = now;
    }
    health.put(name, h);
    if (!now.isAfter(h.probe.plusSeconds(grace))) {
      return new Observed(observed, current, node);
    }
    // no heartbeat nor renewal for the grace period: every condition the kubelet owns is Unknown
    List<Value> conditions = new ArrayList<>(Nested.list(node, "status", "conditions"));
    String nowText = Meta.formatTime(now);
    for (String type : UNKNOWN_ON_SILENCE) {
      int at = -1;
      for (int i = 0; i < conditions.size(); i++) {
        if (Nested.str(conditions.get(i), "type").equals(type)) {
          at = i;
          break;
        }
      }
      if (at < 0) {
        conditions.add(MapValue.ofEntries("type", Value.of(type), "status", Value.of("Unknown"),
            "lastHeartbeatTime", Value.of(Meta.formatTime(created)),
            "lastTransitionTime", Value.of(nowText),
            "reason", Value.of("NodeStatusNeverUpdated"),
            "message", Value.of("Kubelet never posted node status.")));
      } else if (!Nested.str(conditions.get(at), "status").equals("Unknown")) {
        conditions.set(at, ((MapValue) conditions.get(at))
            .with("status", Value.of("Unknown"))
            .with("lastTransitionTime", Value.of(nowText))
            .with("reason", Value.of("NodeStatusUnknown"))
            .with("message", Value.of("Kubelet stopped posting node status.")));
      }
    }
    MapValue updated = Nested.set(node, ListValue.of(conditions), "status", "conditions");
    Value newReady = readyCondition(updated);
    if (newReady.equals(observed)) {
      return new Observed(observed, newReady, node);
    }
    MapValue stored = context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES)
        .name(name).subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(updated).build())
        .orThrow();
    Health after = new Health();
    after.probe = h.probe;
    after.readyTransition = now;
    after.ready = newReady;
    after.leaseRenew = renewed.orElse(null);
    health.put(name, after);
    return new Observed(observed, newReady, stored);
  }

  private static Health fresh(Value ready, Instant now) {
    Health h = new Health();
    h.probe = now;
    h.readyTransition = now;
    h.ready = ready;
    return h;
  }

  /** kube's {@code processTaintBaseEviction}, on the Ready condition seen before this pass. */
  private void processTaintBaseEviction(MapValue node, Value observed, Instant now) {
    switch (status(observed)) {
      case "False" -> {
        if (hasTaint(node, UNREACHABLE)) {
          if (!swapTaints(Meta.metaString(node, "name"), NOT_READY, UNREACHABLE, now)) {
            LOG.info("Failed to instantly swap UnreachableTaint to NotReadyTaint. Will try again "
                + "in the next cycle");
          }
        } else {
          markNodeForTainting(node, "False", now);
        }
      }
      case "Unknown" -> {
        if (hasTaint(node, NOT_READY)) {
          if (!swapTaints(Meta.metaString(node, "name"), UNREACHABLE, NOT_READY, now)) {
            LOG.info("Failed to instantly swap NotReadyTaint to UnreachableTaint. Will try again "
                + "in the next cycle");
          }
        } else {
          markNodeForTainting(node, "Unknown", now);
        }
      }
      case "True" -> markNodeAsReachable(node);
      default -> { }
    }
  }

  private static boolean hasTaint(MapValue node, String key) {
    for (Value t : Nested.list(node, "spec", "taints")) {
      if (Nested.str(t, "key").equals(key) && Nested.str(t, "effect").equals("NoExecute")) {
        return true;
      }
    }
    return false;
  }

  private void markNodeForTainting(MapValue node, String status, Instant now) {
    ZoneTainter t = tainter(node, now);
    String name = Meta.metaString(node, "name");
    if (status.equals("False") && !hasTaint(node, NOT_READY)
        || status.equals("Unknown") && !hasTaint(node, UNREACHABLE)) {
      t.remove(name);
    }
    if (t.add(name, Meta.metaString(node, "uid"), now)) {
      queue.add(TAINT);
    }
  }

  private boolean markNodeAsReachable(MapValue node) {
    String name = Meta.metaString(node, "name");
    if (hasTaint(node, UNREACHABLE) || hasTaint(node, NOT_READY)) {
      if (!updateTaints(name, taints -> withoutTaint(withoutTaint(taints, UNREACHABLE),
          NOT_READY))) {
        return false;
      }
    }
    ZoneTainter t = tainters.get(zoneKey(node));
    return t != null && t.remove(name);
  }

  /** kube's {@code doNoExecuteTaintingPass}; queued again when a zone's limiter next allows. */
  private void noExecuteTaintingPass(Instant now) {
    for (ZoneTainter t : tainters.values()) {
      t.tryProcess(now, name -> {
        Optional<MapValue> node = nodes.get("", name);
        if (node.isEmpty()) {
          return ZoneTainter.Result.DONE;
        }
        Value ready = readyCondition(node.get());
        if (ready == null) {
          return new ZoneTainter.Result(false, Duration.ofMillis(50));
        }
        String add;
        String opposite;
        switch (status(ready)) {
          case "False" -> {
            add = NOT_READY;
            opposite = UNREACHABLE;
          }
          case "Unknown" -> {
            add = UNREACHABLE;
            opposite = NOT_READY;
          }
          default -> {
            return ZoneTainter.Result.DONE; // Ready again
          }
        }
        return swapTaints(name, add, opposite, now) ? ZoneTainter.Result.DONE
            : new ZoneTainter.Result(false, Duration.ZERO);
      });
      t.nextTry(now).ifPresent(at -> queue.addAt(TAINT, at));
    }
  }

  /** kube's {@code SwapNodeControllerTaint} for one NoExecute taint and its opposite. */
  private boolean swapTaints(String node, String add, String remove, Instant now) {
    MapValue taint = MapValue.ofEntries("key", Value.of(add), "effect", Value.of("NoExecute"),
        "timeAdded", Value.of(Meta.formatTime(now)));
    return updateTaints(node, taints -> withoutTaint(addOrUpdate(taints, taint), remove));
  }

  /** kube's {@code AddOrUpdateTaint}: a taint of that key, effect and value is left as it is. */
  static List<Value> addOrUpdate(List<Value> taints, MapValue taint) {
    List<Value> out = new ArrayList<>();
    boolean updated = false;
    for (Value t : taints) {
      if (Nested.str(t, "key").equals(Nested.str(taint, "key"))
          && Nested.str(t, "effect").equals(Nested.str(taint, "effect"))) {
        if (Nested.str(t, "value").equals(Nested.str(taint, "value"))) {
          return taints;
        }
        out.add(taint);
        updated = true;
      } else {
        out.add(t);
      }
    }
    if (!updated) {
      out.add(taint);
    }
    return out;
  }

  static List<Value> withoutTaint(List<Value> taints, String key) {
    List<Value> out = new ArrayList<>();
    for (Value t : taints) {
      if (!(Nested.str(t, "key").equals(key) && Nested.str(t, "effect").equals("NoExecute"))) {
        out.add(t);
      }
    }
    return out.size() == taints.size() ? taints : out;
  }

  /**
   * Writes {@code change} of the Node's taints, from the cache first and from the server after
   * a conflict, as kube's {@code AddOrUpdateTaintOnNode} and {@code RemoveTaintOffNode} retry;
   * whether it was written (or needed no write).
   */
  private boolean updateTaints(String name, UnaryOperator<List<Value>> change) {
    Optional<MapValue> node = nodes.get("", name);
    for (int attempt = 0; attempt < 5 && node.isPresent(); attempt++) {
      List<Value> taints = Nested.list(node.get(), "spec", "taints");
      List<Value> updated = change.apply(taints);
      if (updated.equals(taints)) {
        return true;
      }
      MapValue body = updated.isEmpty() ? Nested.remove(node.get(), "spec", "taints")
          : Nested.set(node.get(), ListValue.of(updated), "spec", "taints");
      try {
        context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES).name(name)
            .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
            .user(user).body(body).build()).orThrow();
        return true;
      } catch (ConflictException e) {
        node = context.client(NODES, user).find(name);
      } catch (NotFoundException e) {
        return false;
      }
    }
    return false;
  }

  // ---- Pods ----

  private List<MapValue> podsOn(String node) {
    List<MapValue> out = new ArrayList<>();
    for (MapValue p : pods.list()) {
      if (Nested.str(p, "spec", "nodeName").equals(node)) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * kube's {@code MarkPodsNotReady}: each Pod's Ready condition set False (its reason and
   * message kept), with an Event {@code NodeNotReady}; whether every write succeeded.
   */
  private boolean markPodsNotReady(List<MapValue> onNode, String node, Instant now) {
    boolean ok = true;
    for (MapValue pod : onNode) {
      if (!Nested.str(pod, "spec", "nodeName").equals(node)) {
        continue;
      }
      Value ready = null;
      for (Value c : Nested.list(pod, "status", "conditions")) {
        if (Nested.str(c, "type").equals("Ready")) {
          ready = c;
          break;
        }
      }
      if (ready == null) {
        continue;
      }
      Optional<List<Value>> conditions = PodConditions.update(
          Nested.list(pod, "status", "conditions"), "Ready", "False",
          Nested.str(ready, "reason"), Nested.str(ready, "message"), now);
      if (conditions.isEmpty()) {
        continue;
      }
      MapValue updated = Nested.set(pod, ListValue.of(conditions.get()), "status", "conditions");
      try {
        context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
            .namespace(Meta.metaString(pod, "namespace")).name(Meta.metaString(pod, "name"))
            .subresource("status").options(UpdateOptions.defaults())
            .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(updated).build())
            .orThrow();
      } catch (NotFoundException e) {
        continue;
      } catch (StatusException e) {
        LOG.info("Unable to mark pod {}/{} NotReady on node {}: {}",
            Meta.metaString(pod, "namespace"), Meta.metaString(pod, "name"), node,
            e.getMessage());
        ok = false;
      }
      recorder.warning(InvolvedObject.of("v1", "Pod", pod), "NodeNotReady", "Node is not ready");
    }
    return ok;
  }

  /** kube's {@code processPod}: a Pod bound to a Node last seen unready is marked not ready. */
  private Outcome processPod(String namespace, String name, Instant now) {
    Optional<MapValue> pod = pods.get(namespace, name);
    if (pod.isEmpty()) {
      return Outcome.FORGET;
    }
    String node = Nested.str(pod.get(), "spec", "nodeName");
    Health h = health.get(node);
    if (h == null) {
      return Outcome.FORGET; // not seen yet, or removed
    }
    if (nodes.get("", node).isEmpty()) {
      return Outcome.REQUEUE;
    }
    if (h.ready == null || status(h.ready).equals("True")) {
      return Outcome.FORGET;
    }
    return markPodsNotReady(List.of(pod.get()), node, now) ? Outcome.FORGET : Outcome.REQUEUE;
  }

  // ---- zones ----

  /** kube's {@code nodetopology.GetZoneKey}: region and zone labels, "" without both. */
  static String zoneKey(MapValue node) {
    Map<String, String> labels = Meta.labels(node);
    String zone = labels.getOrDefault("topology.kubernetes.io/zone",
        labels.getOrDefault("failure-domain.beta.kubernetes.io/zone", ""));
    String region = labels.getOrDefault("topology.kubernetes.io/region",
        labels.getOrDefault("failure-domain.beta.kubernetes.io/region", ""));
    if (region.isEmpty() && zone.isEmpty()) {
      return "";
    }
    return region + ":\u0000:" + zone;
  }

  private void addTainterForZone(MapValue node, Instant now) {
    String zone = zoneKey(node);
    if (!zoneStates.containsKey(zone)) {
      zoneStates.put(zone, ZoneState.INITIAL);
      tainters.put(zone, new ZoneTainter(EVICTION_QPS, now));
    }
  }

  private ZoneTainter tainter(MapValue node, Instant now) {
    addTainterForZone(node, now);
    return tainters.get(zoneKey(node));
  }

  /** kube's {@code ComputeZoneState}. */
  static ZoneState computeZoneState(List<Value> readyConditions) {
    int ready = 0;
    int notReady = 0;
    for (Value c : readyConditions) {
      if (status(c).equals("True")) {
        ready++;
      } else {
        notReady++;
      }
    }
    if (ready == 0 && notReady > 0) {
      return ZoneState.FULL_DISRUPTION;
    }
    if (notReady > 2 && (double) notReady / (notReady + ready) >= UNHEALTHY_ZONE_THRESHOLD) {
      return ZoneState.PARTIAL_DISRUPTION;
    }
    return ZoneState.NORMAL;
  }

  /** kube's {@code handleDisruption}. */
  private void handleDisruption(Map<String, List<Value>> zoneConditions, List<MapValue> all,
      Instant now) {
    Map<String, ZoneState> newStates = new LinkedHashMap<>();
    boolean allAreFullyDisrupted = true;
    for (Map.Entry<String, List<Value>> e : zoneConditions.entrySet()) {
      ZoneState s = computeZoneState(e.getValue());
      if (s != ZoneState.FULL_DISRUPTION) {
        allAreFullyDisrupted = false;
      }
      newStates.put(e.getKey(), s);
      zoneStates.putIfAbsent(e.getKey(), ZoneState.INITIAL);
      tainters.computeIfAbsent(e.getKey(), k -> new ZoneTainter(EVICTION_QPS, now));
    }
    boolean allWasFullyDisrupted = true;
    for (String zone : new ArrayList<>(zoneStates.keySet())) {
      if (!zoneConditions.containsKey(zone)) {
        zoneStates.remove(zone);
        continue;
      }
      if (zoneStates.get(zone) != ZoneState.FULL_DISRUPTION) {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) {
      return;
    }
    if (allAreFullyDisrupted) {
      LOG.info("Controller detected that all Nodes are not-Ready. Entering master disruption "
          + "mode");
      for (MapValue n : all) {
        markNodeAsReachable(nodes.get("", Meta.metaString(n, "name")).orElse(n));
      }
      for (String zone : zoneStates.keySet()) {
        tainters.get(zone).swapLimiter(0, now);
        zoneStates.put(zone, ZoneState.FULL_DISRUPTION);
      }
      return;
    }
    if (allWasFullyDisrupted) {
      LOG.info("Controller detected that some Nodes are Ready. Exiting master disruption mode");
      for (MapValue n : all) {
        Health h = health.get(Meta.metaString(n, "name"));
        if (h != null) {
          h.probe = now;
          h.readyTransition = now;
        }
      }
      for (String zone : zoneStates.keySet()) {
        setLimiter(zone, zoneConditions.get(zone).size(), newStates.get(zone), now);
        zoneStates.put(zone, newStates.get(zone));
      }
      return;
    }
    for (String zone : zoneStates.keySet()) {
      ZoneState s = newStates.get(zone);
      if (s == null || zoneStates.get(zone) == s) {
        // a zone with no Nodes left: dropped by a later pass
        continue;
      }
      LOG.info("Controller detected that zone {} is now in state {}", zone, s);
      setLimiter(zone, zoneConditions.get(zone).size(), s, now);
      zoneStates.put(zone, s);
    }
  }

  private void setLimiter(String zone, int size, ZoneState state, Instant now) {
    ZoneTainter t = tainters.get(zone);
    switch (state) {
      case NORMAL, FULL_DISRUPTION -> t.swapLimiter(EVICTION_QPS, now);
      case PARTIAL_DISRUPTION -> t.swapLimiter(size > LARGE_CLUSTER_THRESHOLD
          ? SECONDARY_EVICTION_QPS : 0, now);
      default -> { }
    }
  }

  // ---- labels and events ----

  /** kube's {@code reconcileNodeLabels}: the beta OS and arch labels follow the stable ones. */
  private void reconcileNodeLabels(String name) {
    Optional<MapValue> node = nodes.get("", name);
    if (node.isEmpty()) {
      return;
    }
    Map<String, String> labels = Meta.labels(node.get());
    Map<String, String> update = new LinkedHashMap<>();
    for (String[] pair : new String[][] {{"kubernetes.io/os", "beta.kubernetes.io/os"},
        {"kubernetes.io/arch", "beta.kubernetes.io/arch"}}) {
      String primary = labels.get(pair[0]);
      if (primary != null && !primary.equals(labels.get(pair[1]))) {
        update.put(pair[1], primary);
      }
    }
    if (update.isEmpty()) {
      return;
    }
    MapValue.Builder merged = Nested.map(node.get(), "metadata", "labels").toBuilder();
    update.forEach((k, v) -> merged.put(k, Value.of(v)));
    try {
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES).name(name)
          .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
          .user(user).body(Nested.set(node.get(), merged.build(), "metadata", "labels"))
          .build()).orThrow();
    } catch (ConflictException | NotFoundException e) {
      // the Node's next event brings it here again
    }
  }

  /** kube's {@code RecordNodeEvent} and {@code RecordNodeStatusChange}: Normal, on the Node. */
  private void recordNodeEvent(MapValue node, String reason, String message) {
    recorder.normal(new InvolvedObject("v1", "Node", "", Meta.metaString(node, "name"),
        Meta.metaString(node, "uid"), ""), reason, message);
  }

  /** What the worker knows of {@code node}'s zone, for tests. */
  Optional<ZoneState> zoneState(String zone) {
    return Optional.ofNullable(zoneStates.get(zone));
  }
}
