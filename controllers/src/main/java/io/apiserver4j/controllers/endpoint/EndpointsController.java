/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpoint;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.ServiceEndpoints;
import io.apiserver4j.controllers.internal.TriggerTimeTracker;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * kube's endpoints controller (pkg/controller/endpoint/endpoints_controller.go): keeps the
 * {@code Endpoints} object of every Service with a selector equal to the Pods it selects. Each
 * Pod with an IP of the Service's first IP family is an address, ready or not ready by its Ready
 * condition (ready either way with {@code publishNotReadyAddresses}), for each Service port its
 * containers serve; addresses are repacked into subsets by the ports they share
 * ({@link Subsets#repack}). The object carries the Service's labels (plus
 * {@code service.kubernetes.io/headless} for a Service without a cluster IP), the
 * {@code endpoints.kubernetes.io/last-change-trigger-time} annotation and, past
 * {@value Subsets#MAX_CAPACITY} addresses, the {@code endpoints.kubernetes.io/over-capacity:
 * truncated} annotation with the addresses truncated as kube does. The Endpoints of a deleted
 * Service are deleted. Writes as {@code system:serviceaccount:kube-system:endpoint-controller}.
 */
public final class EndpointsController implements Controller {
  /** kube's {@code --concurrent-endpoint-syncs} default. */
  private static final int WORKERS = 5;
  static final String OVER_CAPACITY = "endpoints.kubernetes.io/over-capacity";
  private static final String LEADER_ANNOTATION = "control-plane.alpha.kubernetes.io/leader";
  private static final GroupVersionResource ENDPOINTS =
      new GroupVersionResource("", "v1", "endpoints");

  private final ControllerContext context;
  private final UserInfo user = ControllerContext.serviceAccount("endpoint-controller");
  private final EventRecorder events;
  private final Informer services;
  private final Informer pods;
  private final Informer endpoints;
  private final WorkQueue<String> queue;
  private final TriggerTimeTracker triggerTimes = new TriggerTimeTracker();
  private Workers workers;

  /** The {@code endpoint} controller on {@code context}'s informers. */
  public EndpointsController(ControllerContext context) {
    this.context = context;
    this.events = new EventRecorder(context, user, "endpoint-controller");
    this.queue = context.newQueue("endpoint");
    this.services = context.informers().informer(new GroupResource("", "services"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.endpoints = context.informers().informer(new GroupResource("", "endpoints"));
    services.addHandler(new KeyHandler(true));
    endpoints.addHandler(new KeyHandler(false));
    pods.addHandler(new PodHandler());
  }

  @Override
  public void start() {
    checkLeftoverEndpoints();
    workers = context.startWorkers("endpoint", queue, WORKERS, this::sync);
  }

  @Override
  public void resetInPlace() {
    checkLeftoverEndpoints();
  }

  /** kube's {@code checkLeftoverEndpoints}: Endpoints whose Service went while no controller ran. */
  private void checkLeftoverEndpoints() {
    for (MapValue ep : endpoints.list()) {
      if (!Meta.annotations(ep).containsKey(LEADER_ANNOTATION)) {
        queue.add(Pods.key(ep));
      }
    }
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** Services on every event; Endpoints on deletion only, as kube's handlers. */
  private final class KeyHandler implements ResourceEventHandler {
    private final boolean all;

    KeyHandler(boolean all) {
      this.all = all;
    }

    @Override
    public void onAdd(MapValue object) {
      if (all) {
        queue.add(Pods.key(object));
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue object) {
      if (all) {
        queue.add(Pods.key(object));
      }
    }

    @Override
    public void onDelete(MapValue object) {
      queue.add(Pods.key(object));
    }
  }

  /** kube's addPod/updatePod/deletePod: the Services the Pod belongs or belonged to. */
  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      queueServices(pod);
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
      queueServices(pod);
    }

    private void queueServices(MapValue pod) {
      memberships(pod).forEach(queue::add);
    }

    private Set<String> memberships(MapValue pod) {
      return ServiceEndpoints.memberships(services.list(Meta.metaString(pod, "namespace")), pod);
    }
  }

  /** kube's {@code syncService}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    Optional<MapValue> cached = services.get(namespace, name);
    if (cached.isEmpty()) {
      try {
        client(namespace).delete(name);
      } catch (NotFoundException e) {
        // already gone
      }
      triggerTimes.delete(key);
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
    Optional<Instant> triggerTime = triggerTimes.compute(service, selected);
    ListValue subsets = subsets(service, selected);

    Optional<MapValue> current = endpoints.get(namespace, name);
    Map<String, String> serviceLabels = Meta.labels(service);
    if (current.isPresent()) {
      Map<String, String> compare = new LinkedHashMap<>(Meta.labels(current.get()));
      compare.remove(ServiceEndpoints.HEADLESS);
      if (Subsets.equalIgnoringResourceVersion(Nested.list(current.get(), "subsets"), subsets)
          && compare.equals(serviceLabels)
          && capacityAnnotationSetCorrectly(current.get())) {
        return Outcome.FORGET;
      }
    }
    MapValue base = current.orElseGet(() -> MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("Endpoints"), "metadata", MapValue.ofEntries("name", Value.of(name),
            "namespace", Value.of(namespace))));
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(base));
    triggerTime.ifPresentOrElse(
        t -> annotations.put(ServiceEndpoints.TRIGGER_TIME, ServiceEndpoints.formatNano(t)),
        () -> annotations.remove(ServiceEndpoints.TRIGGER_TIME));
    Optional<ListValue> truncated = Subsets.truncate(subsets);
    if (truncated.isPresent()) {
      subsets = truncated.get();
      annotations.put(OVER_CAPACITY, "truncated");
    } else {
      annotations.remove(OVER_CAPACITY);
    }
    Map<String, String> labels = new LinkedHashMap<>(serviceLabels);
    if (!ServiceEndpoints.serviceIpSet(service)) {
      labels.put(ServiceEndpoints.HEADLESS, "");
    } else {
      labels.remove(ServiceEndpoints.HEADLESS);
    }
    MapValue updated = withStrings(withStrings(base, "labels", labels), "annotations",
        annotations);
    updated = subsets.isEmpty() ? updated.without("subsets") : updated.with("subsets", subsets);
    try {
      if (current.isEmpty()) {
        client(namespace).create(updated);
      } else {
        client(namespace).update(updated);
      }
    } catch (StatusException e) {
      if (current.isEmpty() && e.status().causes().stream()
          .anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
        return Outcome.FORGET;
      }
      // kube records it about the Endpoints it meant to write
      EventRecorder.InvolvedObject about = EventRecorder.InvolvedObject.of("v1", "Endpoints",
          updated);
      if (current.isEmpty()) {
        events.warning(about, "FailedToCreateEndpoint", "Failed to create endpoint for service "
            + namespace + "/" + name + ": " + e.getMessage());
      } else {
        events.warning(about, "FailedToUpdateEndpoint", "Failed to update endpoint "
            + namespace + "/" + name + ": " + e.getMessage());
      }
      throw e;
    }
    return Outcome.FORGET;
  }

  /** The unpacked subsets of kube's sync loop, then repacked. */
  static ListValue subsets(MapValue service, List<MapValue> selected) {
    boolean publishNotReady = Nested.bool(service, "spec", "publishNotReadyAddresses");
    List<Value> ports = Nested.list(service, "spec", "ports");
    boolean headless = Nested.str(service, "spec", "clusterIP").equals("None");
    List<Subsets.Entry> entries = new ArrayList<>();
    for (MapValue pod : selected) {
      if (!ServiceEndpoints.shouldPodBeInEndpoints(pod, publishNotReady)) {
        continue;
      }
      Optional<MapValue> address = address(service, pod);
      if (address.isEmpty()) {
        continue;
      }
      boolean ready = publishNotReady || Pods.ready(pod);
      if (ports.isEmpty()) {
        if (headless) {
          entries.add(new Subsets.Entry(address.get(), ready, Optional.empty()));
        }
        continue;
      }
      for (Value port : ports) {
        OptionalLong number = ServiceEndpoints.findPort(pod, port);
        if (number.isEmpty()) {
          continue;
        }
        MapValue.Builder p = MapValue.builder();
        String portName = Nested.str(port, "name");
        if (!portName.isEmpty()) {
          p.put("name", Value.of(portName));
        }
        p.put("port", Value.of(number.getAsLong()));
        p.put("protocol", Value.of(ServiceEndpoints.protocol(port)));
        Value app = Nested.getOrNull(port, "appProtocol");
        if (app != null) {
          p.put("appProtocol", app);
        }
        entries.add(new Subsets.Entry(address.get(), ready, Optional.of(p.build())));
      }
    }
    return Subsets.repack(entries);
  }

  /** kube's {@code podToEndpointAddressForService}, hostname included. */
  static Optional<MapValue> address(MapValue service, MapValue pod) {
    List<String> families = Meta.stringList(Nested.getOrNull(service, "spec", "ipFamilies"));
    boolean v6;
    if (!families.isEmpty()) {
      v6 = families.get(0).equals("IPv6");
    } else if (ServiceEndpoints.serviceIpSet(service)) {
      v6 = ServiceEndpoints.isIpv6(Nested.str(service, "spec", "clusterIP"));
    } else {
      v6 = ServiceEndpoints.isIpv6(Nested.str(pod, "status", "podIP"));
    }
    String ip = null;
    for (String candidate : ServiceEndpoints.podIps(pod)) {
      if (ServiceEndpoints.isIpv6(candidate) == v6) {
        ip = candidate;
        break;
      }
    }
    if (ip == null) {
      return Optional.empty();
    }
    MapValue.Builder a = MapValue.builder().put("ip", Value.of(ip));
    if (ServiceEndpoints.shouldSetHostname(pod, service)) {
      a.put("hostname", Value.of(Nested.str(pod, "spec", "hostname")));
    }
    a.put("nodeName", Value.of(Nested.str(pod, "spec", "nodeName")));
    a.put("targetRef", MapValue.ofEntries("kind", Value.of("Pod"),
        "namespace", Value.of(Meta.metaString(pod, "namespace")),
        "name", Value.of(Meta.metaString(pod, "name")),
        "uid", Value.of(Meta.metaString(pod, "uid"))));
    return Optional.of(a.build());
  }

  /** kube's {@code capacityAnnotationSetCorrectly}. */
  private static boolean capacityAnnotationSetCorrectly(MapValue endpoints) {
    if (Subsets.count(Nested.list(endpoints, "subsets")) > Subsets.MAX_CAPACITY) {
      return false;
    }
    return !Meta.annotations(endpoints).containsKey(OVER_CAPACITY);
  }

  /** The metadata map {@code key} set to {@code m}, or removed when empty as Go omits it. */
  private static MapValue withStrings(MapValue object, String key, Map<String, String> m) {
    if (m.isEmpty()) {
      return Meta.withoutMeta(object, key);
    }
    MapValue.Builder b = MapValue.builder();
    m.forEach((k, v) -> b.put(k, Value.of(v)));
    return Meta.withMeta(object, key, b.build());
  }

  private ResourceClient client(String namespace) {
    return context.client(ENDPOINTS, user).namespace(namespace);
  }
}
