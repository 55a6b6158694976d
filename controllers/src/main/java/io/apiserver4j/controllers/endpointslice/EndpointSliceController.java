/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslice;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.EndpointSliceTracker;
import io.apiserver4j.controllers.internal.EndpointSliceWriter;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.ServiceEndpoints;
import io.apiserver4j.controllers.internal.TriggerTimeTracker;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's endpointslice controller (pkg/controller/endpointslice/endpointslice_controller.go):
 * for every Service with a selector, the EndpointSlices of the Pods it selects, through the
 * {@link Reconciler}: named {@code <service>-<random>} by generateName, labelled
 * {@code kubernetes.io/service-name} and {@code endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io}, owned by the Service, at most
 * {@value #MAX_ENDPOINTS_PER_SLICE} endpoints each, with each endpoint's ready/serving/
 * terminating conditions, node name and its Node's zone. A Pod whose Node does not exist is
 * left out and the Service retried, as kube does. Writes as
 * {@code system:serviceaccount:kube-system:endpointslice-controller}.
 */
public final class EndpointSliceController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointSliceController.class);
  /** kube's {@code --max-endpoints-per-slice} default. */
  static final int MAX_ENDPOINTS_PER_SLICE = 100;
  /** kube's {@code --concurrent-service-endpoint-syncs} default. */
  private static final int WORKERS = 5;
  /** kube's {@code ControllerName}. */
  static final String CONTROLLER_NAME = "endpointslice-controller.k8s.io";
  static final GroupVersionResource SLICES =
      new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");

  private final ControllerContext context;
  private final UserInfo user = ControllerContext.serviceAccount("endpointslice-controller");
  private final Informer services;
  private final Informer pods;
  private final Informer slices;
  private final Informer nodes;
  private final WorkQueue<String> queue;
  private final TriggerTimeTracker triggerTimes = new TriggerTimeTracker();
  private final EndpointSliceTracker tracker = new EndpointSliceTracker();
  private final Reconciler reconciler;
  private final EventRecorder events;
  private Workers workers;

  /** The {@code endpointslice} controller on {@code context}'s informers. */
  public EndpointSliceController(ControllerContext context) {
    this.context = context;
    this.events = new EventRecorder(context, user, "endpoint-slice-controller");
    this.queue = context.newQueue("endpointslice");
    this.services = context.informers().informer(new GroupResource("", "services"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.slices = context.informers().informer(
        new GroupResource("discovery.k8s.io", "endpointslices"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.reconciler = new Reconciler(CONTROLLER_NAME, MAX_ENDPOINTS_PER_SLICE, EndpointSliceWriter.through(this::client),
        tracker);
    services.addHandler(ResourceEventHandler.enqueueing(queue));
    pods.addHandler(new PodHandler());
    slices.addHandler(new SliceHandler());
  }

  @Override
  public void start() {
    workers = context.startWorkers("endpointslice", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      memberships(pod).forEach(queue::add);
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(pod, "resourceVersion"))) {
        return;
      }
      Set<String> keys = new LinkedHashSet<>(memberships(pod));
      if (!Meta.labels(old).equals(Meta.labels(pod))) {
        keys.addAll(memberships(old));
      }
      keys.forEach(queue::add);
    }

    @Override
    public void onDelete(MapValue pod) {
      memberships(pod).forEach(queue::add);
    }

    private Set<String> memberships(MapValue pod) {
      return ServiceEndpoints.memberships(services.list(Meta.metaString(pod, "namespace")), pod);
    }
  }

  /**
   * kube's slice handlers: a slice this controller manages queues its Service unless the event
   * is the controller's own write.
   */
  private final class SliceHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue slice) {
      if (managed(slice) && tracker.shouldSync(serviceKey(slice), slice)) {
        queue.add(serviceKey(slice));
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue slice) {
      if (managed(old) && !managed(slice) || !EndpointSliceTracker.serviceName(old)
          .equals(EndpointSliceTracker.serviceName(slice))) {
        // relabelled away: the old Service must recreate it
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

    private boolean managed(MapValue slice) {
      return Meta.labels(slice).getOrDefault(Reconciler.LABEL_MANAGED_BY, "")
          .equals(CONTROLLER_NAME) && !EndpointSliceTracker.serviceName(slice).isEmpty();
    }

    private String serviceKey(MapValue slice) {
      return Meta.metaString(slice, "namespace") + "/" + EndpointSliceTracker.serviceName(slice);
    }
  }

  /** kube's {@code syncService}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    Optional<MapValue> cached = services.get(namespace, name);
    if (cached.isEmpty()) {
      triggerTimes.delete(key);
      tracker.deleteService(key);
      return Outcome.FORGET;
    }
    MapValue service = cached.get();
    if (Nested.str(service, "spec", "type").equals("ExternalName")) {
      return Outcome.FORGET;
    }
    Optional<Map<String, String>> selector = ServiceEndpoints.selector(service);
    if (selector.isEmpty()) {
      return Outcome.FORGET;
    }
    List<MapValue> selected = pods.list(namespace).stream()
        .filter(p -> ServiceEndpoints.matches(selector.get(), Meta.labels(p))).toList();
    List<MapValue> existing = slices.list(namespace).stream().filter(s -> {
      Map<String, String> labels = Meta.labels(s);
      return name.equals(labels.get(Reconciler.LABEL_SERVICE_NAME))
          && CONTROLLER_NAME.equals(labels.get(Reconciler.LABEL_MANAGED_BY))
          && !Nested.has(s, "metadata", "deletionTimestamp");
    }).toList();
    if (tracker.stale(key, existing)) {
      LOG.debug("EndpointSlice informer cache of {} is out of date; retrying", key);
      return Outcome.REQUEUE;
    }
    Optional<Instant> triggerTime = triggerTimes.compute(service, selected);
    try {
      reconciler.reconcile(service, selected, existing, n -> nodes.get("", n), triggerTime);
    } catch (Reconciler.NodeNotFoundException e) {
      LOG.info("{}", e.getMessage());
      events.warning(EventRecorder.InvolvedObject.of("v1", "Service", service),
          "FailedToUpdateEndpointSlices", "Error updating Endpoint Slices for Service "
              + Pods.key(service) + ": " + e.getMessage());
      return Outcome.REQUEUE;
    }
    return Outcome.FORGET;
  }

  private ResourceClient client(String namespace) {
    return context.client(SLICES, user).namespace(namespace);
  }
}
