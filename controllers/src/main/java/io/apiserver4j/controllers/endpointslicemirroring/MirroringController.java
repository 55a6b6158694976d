/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslicemirroring;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EndpointSliceTracker;
import io.apiserver4j.controllers.internal.EndpointSliceWriter;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.ServiceEndpoints;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's endpointslicemirroring controller
 * (pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go): the Endpoints
 * of every Service without a selector are mirrored to EndpointSlices labelled
 * {@code endpointslice.kubernetes.io/managed-by: endpointslicemirroring-controller.k8s.io},
 * owned by the Endpoints, one slice per subset and address type ({@link MirroringReconciler}).
 * Endpoints labelled {@code endpointslice.kubernetes.io/skip-mirror: "true"}, leader-election
 * Endpoints, and those of Services with a selector or of no Service are not mirrored (their
 * mirrored slices are deleted). Writes as
 * {@code system:serviceaccount:kube-system:endpointslicemirroring-controller}.
 */
public final class MirroringController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(MirroringController.class);
  /** kube's {@code --concurrent-endpointslice-mirroring-syncs} default. */
  private static final int WORKERS = 5;
  /** kube's {@code --mirroring-max-endpoints-per-subset} default. */
  static final int MAX_ENDPOINTS_PER_SUBSET = 1000;
  static final String CONTROLLER_NAME = "endpointslicemirroring-controller.k8s.io";
  static final String SKIP_MIRROR = "endpointslice.kubernetes.io/skip-mirror";
  private static final String LEADER_ANNOTATION = "control-plane.alpha.kubernetes.io/leader";
  static final GroupVersionResource SLICES =
      new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");

  private final ControllerContext context;
  private final UserInfo user =
      ControllerContext.serviceAccount("endpointslicemirroring-controller");
  private final Informer services;
  private final Informer endpoints;
  private final Informer slices;
  private final WorkQueue<String> queue;
  private final EndpointSliceTracker tracker = new EndpointSliceTracker();
  private final MirroringReconciler reconciler;
  private final EventRecorder events;
  private final EndpointSliceWriter writer;
  private Workers workers;

  /** The {@code endpointslicemirroring} controller on {@code context}'s informers. */
  public MirroringController(ControllerContext context) {
    this.context = context;
    this.events = new EventRecorder(context, user, "endpoint-slice-mirroring-controller");
    this.writer = EndpointSliceWriter.through(this::client);
    this.queue = context.newQueue("endpointslicemirroring");
    this.services = context.informers().informer(new GroupResource("", "services"));
    this.endpoints = context.informers().informer(new GroupResource("", "endpoints"));
    this.slices = context.informers().informer(
        new GroupResource("discovery.k8s.io", "endpointslices"));
    this.reconciler = new MirroringReconciler(MAX_ENDPOINTS_PER_SUBSET, writer,
        (ep, reason, message) -> events.warning(
            EventRecorder.InvolvedObject.of("v1", "Endpoints", ep), reason, message),
        tracker);
    services.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue svc) {
        queue.add(Pods.key(svc));
      }

      @Override
      public void onUpdate(MapValue old, MapValue svc) {
        if (!ServiceEndpoints.selector(old).equals(ServiceEndpoints.selector(svc))) {
          queue.add(Pods.key(svc));
        }
      }

      @Override
      public void onDelete(MapValue svc) {
        queue.add(Pods.key(svc));
      }
    });
    endpoints.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue ep) {
        if (shouldMirror(ep)) {
          queue.add(Pods.key(ep));
        }
      }

      @Override
      public void onUpdate(MapValue old, MapValue ep) {
        if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(ep, "resourceVersion"))
            || !shouldMirror(old) && !shouldMirror(ep)) {
          return;
        }
        queue.add(Pods.key(ep));
      }

      @Override
      public void onDelete(MapValue ep) {
        if (shouldMirror(ep)) {
          queue.add(Pods.key(ep));
        }
      }
    });
    slices.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue slice) {
        if (managed(slice) && tracker.shouldSync(serviceKey(slice), slice)) {
          queue.add(serviceKey(slice));
        }
      }

      @Override
      public void onUpdate(MapValue old, MapValue slice) {
        if (managed(old) && (!managed(slice) || !EndpointSliceTracker.serviceName(old)
            .equals(EndpointSliceTracker.serviceName(slice)))) {
          queue.add(serviceKey(old));
        }
        if (managed(slice) && tracker.shouldSync(serviceKey(slice), slice)) {
          queue.add(serviceKey(slice));
        }
      }

      @Override
      public void onDelete(MapValue slice) {
        if (managed(slice)) {
          String key = serviceKey(slice);
          boolean ours = !tracker.shouldSync(key, slice);
          tracker.deleted(key, slice);
          if (!ours) {
            queue.add(key);
          }
        }
      }
    });
  }

  @Override
  public void start() {
    workers = context.startWorkers("endpointslicemirroring", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  private static boolean managed(MapValue slice) {
    return CONTROLLER_NAME.equals(Meta.labels(slice).get(MirroringReconciler.LABEL_MANAGED_BY))
        && !EndpointSliceTracker.serviceName(slice).isEmpty();
  }

  private static String serviceKey(MapValue slice) {
    return Meta.metaString(slice, "namespace") + "/" + EndpointSliceTracker.serviceName(slice);
  }

  /** kube's {@code shouldMirror}: not skipped by label, not a leader-election record. */
  static boolean shouldMirror(MapValue endpoints) {
    return !"true".equals(Meta.labels(endpoints).get(SKIP_MIRROR))
        && !Meta.annotations(endpoints).containsKey(LEADER_ANNOTATION);
  }

  /** kube's {@code syncEndpoints}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    Optional<MapValue> svc = services.get(namespace, name);
    if (svc.isEmpty()) {
      tracker.deleteService(key);
      deleteMirrored(namespace, name);
      return Outcome.FORGET;
    }
    if (Nested.has(svc.get(), "spec", "selector")) {
      deleteMirrored(namespace, name);
      return Outcome.FORGET;
    }
    Optional<MapValue> ep = endpoints.get(namespace, name);
    if (ep.isEmpty() || !shouldMirror(ep.get())) {
      deleteMirrored(namespace, name);
      return Outcome.FORGET;
    }
    List<MapValue> existing = mirrored(namespace, name).stream()
        .filter(s -> !Nested.has(s, "metadata", "deletionTimestamp")).toList();
    if (tracker.stale(key, existing)) {
      LOG.debug("EndpointSlice informer cache of {} is out of date; retrying", key);
      return Outcome.REQUEUE;
    }
    reconciler.reconcile(ep.get(), existing);
    return Outcome.FORGET;
  }

  /** kube's {@code endpointSlicesMirroredForService}. */
  private List<MapValue> mirrored(String namespace, String name) {
    return slices.list(namespace).stream().filter(s -> {
      Map<String, String> labels = Meta.labels(s);
      return name.equals(labels.get(MirroringReconciler.LABEL_SERVICE_NAME))
          && CONTROLLER_NAME.equals(labels.get(MirroringReconciler.LABEL_MANAGED_BY));
    }).toList();
  }

  /** kube's {@code deleteMirroredSlices}. */
  private void deleteMirrored(String namespace, String name) {
    String key = namespace + "/" + name;
    for (MapValue slice : mirrored(namespace, name)) {
      writer.delete(slice);
      tracker.expectDeletion(key, slice);
    }
  }

  private ResourceClient client(String namespace) {
    return context.client(SLICES, user).namespace(namespace);
  }
}
