/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.ttl;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
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
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.Optional;

/**
 * kube's ttl {@code Controller} (pkg/controller/ttl/ttl_controller.go), as user
 * {@code system:serviceaccount:kube-system:ttl-controller}: counts the Nodes it is told of, moves
 * between the size intervals of {@link TtlBoundaries} with kube's hysteresis, and patches
 * {@code node.alpha.kubernetes.io/ttl} on every added or updated Node whose annotation is not
 * the desired number of seconds. A deleted Node only changes the count: the others follow at
 * their next update (their kubelet's status heartbeat in a cluster), as in kube.
 */
public final class TtlController implements Controller {
  /** kube's {@code v1.ObjectTTLAnnotationKey}. */
  static final String ANNOTATION = "node.alpha.kubernetes.io/ttl";
  /** The workers kube-controller-manager starts it with (a constant, no flag). */
  private static final int WORKERS = 5;
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer nodes;
  private final WorkQueue<String> queue;
  private final TtlBoundaries boundaries = new TtlBoundaries();
  private Workers workers;

  private TtlController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("ttl-controller");
    this.queue = context.newQueue("ttlcontroller");
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    nodes.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue node) {
        boundaries.nodeAdded();
        queue.add(Meta.metaString(node, "name"));
      }

      @Override
      public void onUpdate(MapValue old, MapValue node) {
        queue.add(Meta.metaString(node, "name"));
      }

      @Override
      public void onDelete(MapValue node) {
        boundaries.nodeDeleted();
      }
    });
  }

  /** The {@code ttl} controller. */
  public static Controller create(ControllerContext context) {
    return new TtlController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("ttlcontroller", queue, WORKERS, this::updateNodeIfNeeded);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's {@code updateNodeIfNeeded}. */
  private Outcome updateNodeIfNeeded(String name) {
    Optional<MapValue> node = nodes.get("", name);
    if (node.isEmpty()) {
      return Outcome.FORGET;
    }
    Optional<String> patch = patchIfNeeded(node.get(), boundaries.desiredTtlSeconds());
    if (patch.isPresent()) {
      try {
        context.client(NODES, user).patch(name, PatchType.STRATEGIC_MERGE_PATCH, patch.get());
      } catch (NotFoundException e) {
        // deleted meanwhile: nothing left to annotate
      }
    }
    return Outcome.FORGET;
  }

  /**
   * The strategic merge patch kube sends for {@code node} when {@code desired} differs from its
   * annotation (absent or not an integer counts as different); empty when it already matches.
   */
  static Optional<String> patchIfNeeded(MapValue node, int desired) {
    Optional<Integer> current = currentTtl(node);
    if (current.isPresent() && current.get() == desired) {
      return Optional.empty();
    }
    return Optional.of(patch(node, desired));
  }

  /**
   * kube's {@code patchNodeWithAnnotation}: the two-way strategic merge patch from {@code node}
   * to {@code node} with the annotation set to {@code ttlSeconds} ({@code {}} when it is already).
   */
  static String patch(MapValue node, int ttlSeconds) {
    String value = Integer.toString(ttlSeconds);
    if (value.equals(Meta.annotations(node).get(ANNOTATION))) {
      return "{}";
    }
    return Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries("annotations",
        MapValue.ofEntries(ANNOTATION, Value.of(value)))));
  }

  /** kube's {@code getIntFromAnnotation}: the annotation as Go's {@code strconv.Atoi} reads it. */
  static Optional<Integer> currentTtl(MapValue node) {
    String v = Meta.annotations(node).get(ANNOTATION);
    if (v == null || !v.matches("[+-]?[0-9]+")) {
      return Optional.empty();
    }
    try {
      return Optional.of(Integer.parseInt(v.startsWith("+") ? v.substring(1) : v));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
