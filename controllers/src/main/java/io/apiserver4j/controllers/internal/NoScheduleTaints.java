/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The NoSchedule tainting pass of kube-controller-manager's node lifecycle controller
 * ({@code doNoScheduleTaintingPass}, pkg/controller/nodelifecycle): a Node carries
 * {@code node.kubernetes.io/not-ready} while Ready is False, {@code unreachable} while it is
 * Unknown, {@code memory-pressure}, {@code disk-pressure}, {@code pid-pressure} and
 * {@code network-unavailable} while those conditions are True, and {@code unschedulable} while
 * it is cordoned; other taints are left alone, each taint added gets {@code timeAdded} (kube's
 * {@code SwapNodeControllerTaint}). Writes as user {@code node-controller}. The
 * {@code node-lifecycle-controller} runs it; so does the simulated cluster, since without it the
 * {@code not-ready} taint that admission (TaintNodesByCondition) puts on every new Node would
 * never go when that controller is off. When both run, the second writer's conflict is dropped:
 * the Node's next event brings the state the first one wrote.
 */
public final class NoScheduleTaints implements Controller {
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final UserInfo USER = ControllerContext.serviceAccount("node-controller");
  private static final Map<String, String> BY_CONDITION = Map.of(
      "MemoryPressure/True", "node.kubernetes.io/memory-pressure",
      "DiskPressure/True", "node.kubernetes.io/disk-pressure",
      "PIDPressure/True", "node.kubernetes.io/pid-pressure",
      "NetworkUnavailable/True", "node.kubernetes.io/network-unavailable",
      "Ready/False", "node.kubernetes.io/not-ready",
      "Ready/Unknown", "node.kubernetes.io/unreachable");
  private static final String UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

  private final ControllerContext context;
  private final Informer nodes;
  private final WorkQueue<String> queue;
  private Workers workers;

  /** The pass over {@code context}'s Nodes. */
  public NoScheduleTaints(ControllerContext context) {
    this.context = context;
    this.queue = context.newQueue("node-noschedule-taints");
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    nodes.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue node) {
        queue.add(Meta.metaString(node, "name"));
      }

      @Override
      public void onUpdate(MapValue old, MapValue node) {
        queue.add(Meta.metaString(node, "name"));
      }

      @Override
      public void onDelete(MapValue node) {
        // nothing to taint
      }
    });
  }

  @Override
  public void start() {
    workers = context.startWorkers("node-noschedule-taints", queue, 1, this::sync);
  }

  @Override
  public void close() {
    if (workers != null) {
      workers.close();
    } else {
      queue.shutDown();
    }
  }

  /** The NoSchedule taints this pass owns that {@code node} should carry, in kube's order. */
  static List<String> wanted(MapValue node) {
    List<String> out = new ArrayList<>();
    for (Value c : Nested.list(node, "status", "conditions")) {
      String taint = BY_CONDITION.get(Nested.str(c, "type") + "/" + Nested.str(c, "status"));
      if (taint != null) {
        out.add(taint);
      }
    }
    if (Nested.bool(node, "spec", "unschedulable")) {
      out.add(UNSCHEDULABLE);
    }
    return out;
  }

  private static boolean owned(Value taint) {
    return Nested.str(taint, "effect").equals("NoSchedule")
        && (BY_CONDITION.containsValue(Nested.str(taint, "key"))
            || Nested.str(taint, "key").equals(UNSCHEDULABLE));
  }

  private Outcome sync(String name) {
    Optional<MapValue> cached = nodes.get("", name);
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue node = cached.get();
    if (Nested.list(node, "status", "conditions").isEmpty()) {
      // kube leaves a Node without a Ready condition to the monitor's grace period
      return Outcome.FORGET;
    }
    List<String> want = wanted(node);
    List<Value> current = Nested.list(node, "spec", "taints");
    Map<String, Value> kept = new LinkedHashMap<>();
    List<Value> out = new ArrayList<>();
    for (Value t : current) {
      if (!owned(t) || want.contains(Nested.str(t, "key"))) {
        out.add(t);
        kept.put(Nested.str(t, "key") + "/" + Nested.str(t, "effect"), t);
      }
    }
    String now = Meta.formatTime(context.clock().instant());
    for (String key : want) {
      if (!kept.containsKey(key + "/NoSchedule")) {
        out.add(MapValue.ofEntries("key", Value.of(key), "effect", Value.of("NoSchedule"),
            "timeAdded", Value.of(now)));
      }
    }
    if (out.equals(current)) {
      return Outcome.FORGET;
    }
    MapValue updated = out.isEmpty() ? Nested.remove(node, "spec", "taints")
        : Nested.set(node, ListValue.of(out), "spec", "taints");
    try {
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES).name(name)
          .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
          .user(USER).body(updated).build()).orThrow();
    } catch (NotFoundException e) {
      // deleted meanwhile
    } catch (ConflictException e) {
      // another writer (the kubelet, the NoExecute pass, a second copy of this pass) changed the
      // Node: its informer event queues it again with the newer state
      return Outcome.FORGET;
    }
    return Outcome.FORGET;
  }
}
