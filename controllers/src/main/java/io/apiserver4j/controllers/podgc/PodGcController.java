/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podgc;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.PodConditions;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code PodGCController} (pkg/controller/podgc/gc_controller.go), as user
 * {@code system:serviceaccount:kube-system:pod-garbage-collector}: every {@link #CHECK_PERIOD}
 * of the server clock (and once at start) it reads the cached Pods and Nodes and force-deletes
 * (grace period 0)
 * <ul>
 *   <li>the oldest terminated Pods beyond {@code --terminated-pod-gc-threshold} (evicted ones
 *       first; the pass is off at 0 or less);
 *   <li>terminating Pods on a Node that is not Ready and tainted
 *       {@code node.kubernetes.io/out-of-service};
 *   <li>Pods bound to a Node that neither the cache nor a GET finds once the Node name has been
 *       in quarantine for 40 seconds, with the {@code DisruptionTarget} condition (reason
 *       {@code DeletionByPodGC}, message {@code PodGC: node no longer exists});
 *   <li>terminating Pods bound to no Node.
 * </ul>
 * A Pod not yet Succeeded or Failed is first patched to phase {@code Failed} through
 * {@code pods/status} (with its UID as a precondition), as kube's
 * {@code markFailedAndDeletePodWithCondition} does, so that a Pod without a kubelet does not
 * stay Running forever. Condition times come from the server clock.
 */
public final class PodGcController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(PodGcController.class);
  /** kube's {@code gcCheckPeriod}. */
  static final Duration CHECK_PERIOD = Duration.ofSeconds(20);
  /** kube-controller-manager's {@code --terminated-pod-gc-threshold} default. */
  public static final int DEFAULT_THRESHOLD = 12500;
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final String GC = "gc";

  /** A Pod condition to set: type, status, reason, message. */
  record Condition(String type, String status, String reason, String message) {}

  /** The condition of a Pod whose Node is gone. */
  static final Condition NODE_GONE = new Condition("DisruptionTarget", "True",
      "DeletionByPodGC", "PodGC: node no longer exists");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer pods;
  private final Informer nodes;
  private final int threshold;
  /** One item, the gc pass, re-queued for the next period: one pass at a time, as kube's loop. */
  private final WorkQueue<String> loop;
  private final Quarantine quarantine = new Quarantine();
  private Workers workers;

  private PodGcController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("pod-garbage-collector");
    this.threshold = context.flag("terminated-pod-gc-threshold", DEFAULT_THRESHOLD);
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.loop = context.newQueue("podgc");
    // only the one worker touches the quarantine, and a reset runs while it is paused
    context.onReset(quarantine::clear);
  }

  /** The {@code podgc} controller. */
  public static Controller create(ControllerContext context) {
    return new PodGcController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("podgc", loop, 1, key -> {
      Instant started = context.clock().instant();
      try {
        gc();
      } finally {
        loop.addAt(GC, started.plus(CHECK_PERIOD));
      }
      return Outcome.FORGET;
    });
    loop.add(GC);
  }

  @Override
  public void resetInPlace() {
    loop.add(GC);
  }

  @Override
  public void close() {
    Workers.close(workers, loop);
  }

  /** kube's {@code gc}: one pass over the cached Pods and Nodes. */
  private void gc() {
    List<MapValue> allPods = pods.list();
    List<MapValue> allNodes = nodes.list();
    for (MapValue pod : PodGcRules.terminatedOverThreshold(allPods, threshold)) {
      markFailedAndDelete(pod, Optional.empty());
    }
    for (MapValue pod : PodGcRules.terminatingOnOutOfServiceNodes(allPods,
        name -> nodes.get("", name))) {
      markFailedAndDelete(pod, Optional.empty());
    }
    gcOrphaned(allPods, allNodes);
    for (MapValue pod : PodGcRules.unscheduledTerminating(allPods)) {
      markFailedAndDelete(pod, Optional.empty());
    }
  }

  /** kube's {@code gcOrphaned} and {@code discoverDeletedNodes}. */
  private void gcOrphaned(List<MapValue> allPods, List<MapValue> allNodes) {
    Set<String> existing = new HashSet<>();
    for (MapValue n : allNodes) {
      existing.add(Meta.metaString(n, "name"));
    }
    Instant now = context.clock().instant();
    for (MapValue pod : allPods) {
      String node = PodGcRules.nodeName(pod);
      if (!node.isEmpty() && !existing.contains(node)) {
        quarantine.add(node, now);
      }
    }
    Set<String> deleted = new HashSet<>();
    for (String node : quarantine.takeReady(now)) {
      if (existing.contains(node)) {
        continue;
      }
      try {
        context.client(NODES, user).get(node);
      } catch (NotFoundException e) {
        deleted.add(node);
      } catch (StatusException e) {
        // kube logs and looks again in a later pass, when a Pod still names the Node
        LOG.error("podgc could not get Node {}", node, e);
      }
    }
    for (MapValue pod : allPods) {
      if (deleted.contains(PodGcRules.nodeName(pod))) {
        markFailedAndDelete(pod, Optional.of(NODE_GONE));
      }
    }
  }

  /**
   * kube's {@code markFailedAndDeletePodWithCondition}: phase Failed (with {@code condition})
   * unless already terminal, then a delete with grace period 0.
   * A Pod gone meanwhile is no error; other failures are logged, and the next pass retries.
   */
  private void markFailedAndDelete(MapValue pod, Optional<Condition> condition) {
    String namespace = Meta.metaString(pod, "namespace");
    String name = Meta.metaString(pod, "name");
    try {
      Optional<String> patch = failedStatusPatch(pod, condition, context.clock().instant());
      if (patch.isPresent()) {
        context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH, PODS)
            .namespace(namespace).name(name).subresource("status")
            .patch(PatchType.STRATEGIC_MERGE_PATCH, patch.get())
            .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
      }
      context.client(PODS, user).namespace(namespace).delete(name,
          DeleteOptions.builder().gracePeriodSeconds(0).build());
    } catch (NotFoundException e) {
      // deleted meanwhile
    } catch (StatusException e) {
      LOG.error("podgc could not delete Pod {}", Pods.key(pod), e);
    }
  }

  /**
   * The strategic merge patch of {@code pods/status} kube's {@code PatchPodStatus} sends to mark
   * {@code pod} Failed (with {@code condition} set at {@code now}, kube's
   * {@code UpdatePodCondition}), its UID as a precondition; empty for a Pod already Succeeded or
   * Failed, which kube deletes without a patch.
   */
  static Optional<String> failedStatusPatch(MapValue pod, Optional<Condition> condition,
      Instant now) {
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return Optional.empty();
    }
    MapValue status = MapValue.ofEntries("phase", Value.of("Failed"));
    if (condition.isPresent()) {
      Condition c = condition.get();
      Optional<List<Value>> conditions = PodConditions.update(
          Nested.list(pod, "status", "conditions"), c.type(), c.status(), c.reason(),
          c.message(), now);
      if (conditions.isPresent()) {
        status = status.with("conditions", ListValue.of(conditions.get()));
      }
    }
    return Optional.of(Json.write(MapValue.ofEntries(
        "metadata", MapValue.ofEntries("uid", Value.of(Meta.metaString(pod, "uid"))),
        "status", status)));
  }
}
