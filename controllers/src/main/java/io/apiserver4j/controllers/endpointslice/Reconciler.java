/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslice;

import io.apiserver4j.controllers.internal.EndpointSliceTracker;
import io.apiserver4j.controllers.internal.EndpointSliceWriter;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ServiceEndpoints;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * kube's EndpointSlice {@code Reconciler} (k8s.io/endpointslice/reconciler.go): from a
 * Service, its Pods and the slices that exist, the slices to create, update and delete, then
 * the writes ({@code finalize}). Per address type of the Service, endpoints are grouped by
 * their set of ports; existing slices of a group keep their endpoints that are still desired
 * (updated where changed), are filled up to {@code maxEndpointsPerSlice}, and new slices take
 * the rest; a Service with no endpoints gets one placeholder slice. Creates are turned into
 * updates of slices about to be deleted. Not thread-safe: one call per Service at a time.
 */
final class Reconciler {
  static final String LABEL_SERVICE_NAME = "kubernetes.io/service-name";
  static final String LABEL_MANAGED_BY = "endpointslice.kubernetes.io/managed-by";
  static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  /** A Pod's node could not be found: kube's {@code ErrNodeNotFound}, retried later. */
  static final class NodeNotFoundException extends RuntimeException {
    NodeNotFoundException(String message) {
      super(message);
    }
  }

  private final String controllerName;
  private final int maxEndpointsPerSlice;
  private final EndpointSliceWriter writer;
  private final EndpointSliceTracker tracker;

  Reconciler(String controllerName, int maxEndpointsPerSlice, EndpointSliceWriter writer,
      EndpointSliceTracker tracker) {
    this.controllerName = controllerName;
    this.maxEndpointsPerSlice = maxEndpointsPerSlice;
    this.writer = writer;
    this.tracker = tracker;
  }

  /**
   * {@code Reconcile}. {@code nodes} looks a Node up by name. Throws the first failed write, or
   * {@link NodeNotFoundException} after writing when a Pod's node was missing.
   */
  void reconcile(MapValue service, List<MapValue> pods, List<MapValue> existing,
      Function<String, Optional<MapValue>> nodes, Optional<Instant> triggerTime) {
    Set<String> types = addressTypes(service);
    List<MapValue> toDelete = new ArrayList<>();
    Map<String, List<MapValue>> byType = new LinkedHashMap<>();
    for (MapValue slice : existing) {
      String type = Nested.str(slice, "addressType");
      if (!types.contains(type)) {
        toDelete.add(slice);
      } else {
        byType.computeIfAbsent(type, t -> new ArrayList<>()).add(slice);
      }
    }
    RuntimeException failure = null;
    for (String type : types) {
      try {
        reconcileByAddressType(service, pods, byType.getOrDefault(type, List.of()), nodes,
            triggerTime, type);
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    for (MapValue slice : toDelete) {
      writer.delete(slice);
      tracker.expectDeletion(Pods.key(service), slice);
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** {@code getAddressTypesForService}. */
  static Set<String> addressTypes(MapValue service) {
    Set<String> out = new LinkedHashSet<>();
    for (String family : Meta.stringList(Nested.getOrNull(service, "spec", "ipFamilies"))) {
      if (family.equals("IPv4") || family.equals("IPv6")) {
        out.add(family);
      }
    }
    if (!out.isEmpty()) {
      return out;
    }
    if (ServiceEndpoints.serviceIpSet(service)) {
      out.add(ServiceEndpoints.isIpv6(Nested.str(service, "spec", "clusterIP")) ? "IPv6"
          : "IPv4");
      return out;
    }
    out.add("IPv4");
    out.add("IPv6");
    return out;
  }

  /** kube's {@code endpointMeta}: what the slices of one group share. */
  private record Group(List<MapValue> ports, String addressType) {}

  private void reconcileByAddressType(MapValue service, List<MapValue> pods,
      List<MapValue> existing, Function<String, Optional<MapValue>> nodes,
      Optional<Instant> triggerTime, String addressType) {
    List<MapValue> toCreate = new ArrayList<>();
    List<MapValue> toUpdate = new ArrayList<>();
    List<MapValue> toDelete = new ArrayList<>();
    Map<List<MapValue>, List<MapValue>> existingByPorts = new LinkedHashMap<>();
    for (MapValue slice : existing) {
      if (ownedBy(slice, service)) {
        existingByPorts.computeIfAbsent(portKey(Nested.list(slice, "ports")),
            k -> new ArrayList<>()).add(slice);
      } else {
        toDelete.add(slice);
      }
    }
    Map<List<MapValue>, Group> groups = new LinkedHashMap<>();
    Map<List<MapValue>, EndpointSet> desired = new LinkedHashMap<>();
    NodeNotFoundException missingNode = null;
    boolean publishNotReady = Nested.bool(service, "spec", "publishNotReadyAddresses");
    for (MapValue pod : pods) {
      if (!ServiceEndpoints.shouldPodBeInEndpoints(pod, true)) {
        continue;
      }
      List<MapValue> ports = endpointPorts(service, pod);
      List<MapValue> key = portKey(ports);
      groups.putIfAbsent(key, new Group(ports, addressType));
      EndpointSet set = desired.computeIfAbsent(key, k -> new EndpointSet());
      String nodeName = Nested.str(pod, "spec", "nodeName");
      Optional<MapValue> node = nodes.apply(nodeName);
      if (node.isEmpty() && !publishNotReady) {
        missingNode = new NodeNotFoundException("skipping Pod " + Meta.metaString(pod, "name")
            + " for Service " + Pods.key(service) + ": Node " + nodeName + " Not Found");
        continue;
      }
      MapValue endpoint = podToEndpoint(pod, node, service, addressType);
      if (!Nested.list(endpoint, "addresses").isEmpty()) {
        set.add(endpoint);
      }
    }
    for (Map.Entry<List<MapValue>, EndpointSet> e : desired.entrySet()) {
      reconcileByPortMapping(service, existingByPorts.getOrDefault(e.getKey(), List.of()),
          e.getValue(), groups.get(e.getKey()), toCreate, toUpdate, toDelete);
    }
    for (Map.Entry<List<MapValue>, List<MapValue>> e : existingByPorts.entrySet()) {
      if (!desired.containsKey(e.getKey())) {
        toDelete.addAll(e.getValue());
      }
    }
    if (existing.size() == toDelete.size() && toCreate.isEmpty()) {
      MapValue placeholder = newSlice(service, new Group(List.of(), addressType));
      if (toDelete.size() == 1 && isPlaceholder(toDelete.get(0), placeholder)) {
        toDelete.clear();
      } else {
        toCreate.add(placeholder);
      }
    }
    finalizeWrites(service, toCreate, toUpdate, toDelete, triggerTime);
    if (missingNode != null) {
      throw missingNode;
    }
  }

  /** kube's {@code placeholderSliceCompare}: no endpoints, no ports, same type and owner. */
  private static boolean isPlaceholder(MapValue slice, MapValue placeholder) {
    return Nested.list(slice, "endpoints").isEmpty() && Nested.list(slice, "ports").isEmpty()
        && Nested.str(slice, "addressType").equals(Nested.str(placeholder, "addressType"))
        && Meta.labels(slice).equals(Meta.labels(placeholder))
        && Nested.list(slice, "metadata", "ownerReferences")
            .equals(Nested.list(placeholder, "metadata", "ownerReferences"));
  }

  private void reconcileByPortMapping(MapValue service, List<MapValue> existing,
      EndpointSet desired, Group group, List<MapValue> toCreate, List<MapValue> toUpdate,
      List<MapValue> toDelete) {
    Map<String, MapValue> byName = new LinkedHashMap<>();
    Set<String> unchanged = new LinkedHashSet<>();
    Set<String> update = new LinkedHashSet<>();
    Set<String> delete = new LinkedHashSet<>();
    // 1. keep the endpoints still desired, noting changed ones
    for (MapValue slice : existing) {
      String name = Meta.metaString(slice, "name");
      byName.put(name, slice);
      List<Value> kept = new ArrayList<>();
      boolean endpointUpdated = false;
      List<Value> current = Nested.list(slice, "endpoints");
      for (Value ep : current) {
        Optional<MapValue> got = desired.get(ep);
        if (got.isPresent()) {
          kept.add(got.get());
          if (!equalBeyondHash(got.get(), ep)) {
            endpointUpdated = true;
          }
          desired.remove(ep);
        }
      }
      Map<String, String> labels = labels(slice, service);
      boolean labelsChanged = !labels.equals(Meta.labels(slice));
      if (endpointUpdated || current.size() != kept.size()) {
        if (kept.isEmpty()) {
          delete.add(name);
        } else {
          byName.put(name, withLabels(slice.with("endpoints", ListValue.of(kept)), labels));
          update.add(name);
        }
      } else if (labelsChanged) {
        byName.put(name, withLabels(slice, labels));
        update.add(name);
      } else {
        unchanged.add(name);
      }
    }
    // 2. fill the slices being updated, fullest first
    if (desired.size() > 0 && !update.isEmpty()) {
      List<String> names = new ArrayList<>(update);
      names.sort(Comparator.comparingInt(
          (String n) -> Nested.list(byName.get(n), "endpoints").size()).reversed());
      for (String n : names) {
        byName.put(n, fill(byName.get(n), desired));
      }
    }
    // 3. the rest into one unchanged slice where it fits, else new slices
    while (desired.size() > 0) {
      MapValue toFill = null;
      if (desired.size() < maxEndpointsPerSlice && !unchanged.isEmpty()) {
        List<MapValue> candidates = unchanged.stream().map(byName::get).toList();
        toFill = sliceToFill(candidates, desired.size(), maxEndpointsPerSlice);
      }
      if (toFill == null) {
        toFill = newSlice(service, group);
      }
      toFill = fill(toFill, desired);
      String name = Meta.metaString(toFill, "name");
      if (!name.isEmpty()) {
        byName.put(name, toFill);
        update.add(name);
        unchanged.remove(name);
      } else {
        toCreate.add(toFill);
      }
    }
    update.forEach(n -> toUpdate.add(byName.get(n)));
    delete.forEach(n -> toDelete.add(byName.get(n)));
  }

  private MapValue fill(MapValue slice, EndpointSet desired) {
    List<Value> eps = new ArrayList<>(Nested.list(slice, "endpoints"));
    while (desired.size() > 0 && eps.size() < maxEndpointsPerSlice) {
      eps.add(desired.pop());
    }
    return slice.with("endpoints", ListValue.of(eps));
  }

  /** kube's {@code getSliceToFill}: the fullest slice that still fits {@code count}. */
  static MapValue sliceToFill(List<MapValue> slices, int count, int max) {
    int closest = max;
    MapValue best = null;
    for (MapValue s : slices) {
      int diff = max - (count + Nested.list(s, "endpoints").size());
      if (diff >= 0 && diff < closest) {
        closest = diff;
        best = s;
        if (diff == 0) {
          return best;
        }
      }
    }
    return best;
  }

  /** kube's {@code finalize}. */
  private void finalizeWrites(MapValue service, List<MapValue> toCreate, List<MapValue> toUpdate,
      List<MapValue> toDelete, Optional<Instant> triggerTime) {
    for (Iterator<MapValue> it = toDelete.iterator(); it.hasNext() && !toCreate.isEmpty(); ) {
      MapValue old = it.next();
      MapValue slice = toCreate.get(toCreate.size() - 1);
      if (Nested.str(old, "addressType").equals(Nested.str(slice, "addressType"))
          && ownedBy(old, service)) {
        toCreate.remove(toCreate.size() - 1);
        // the slice replaces the one being deleted, unconditionally as kube's update does
        MapValue meta = Meta.metadata(slice).without("generateName")
            .with("name", Value.of(Meta.metaString(old, "name")));
        toUpdate.add(slice.with("metadata", meta));
        it.remove();
      }
    }
    String key = Pods.key(service);
    if (!Nested.has(service, "metadata", "deletionTimestamp")) {
      for (MapValue slice : toCreate) {
        try {
          tracker.update(key, writer.create(withTriggerTime(slice, triggerTime)));
        } catch (StatusException e) {
          if (e.status().causes().stream()
              .anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
            return;
          }
          throw e;
        }
      }
    }
    for (MapValue slice : toUpdate) {
      tracker.update(key, writer.update(withTriggerTime(slice, triggerTime)));
    }
    for (MapValue slice : toDelete) {
      writer.delete(slice);
      tracker.expectDeletion(key, slice);
    }
  }

  private static MapValue withTriggerTime(MapValue slice, Optional<Instant> triggerTime) {
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(slice));
    triggerTime.ifPresentOrElse(
        t -> annotations.put(ServiceEndpoints.TRIGGER_TIME, ServiceEndpoints.formatNano(t)),
        () -> annotations.remove(ServiceEndpoints.TRIGGER_TIME));
    return annotations.isEmpty() ? Meta.withoutMeta(slice, "annotations")
        : Meta.withMeta(slice, "annotations", strings(annotations));
  }

  /** kube's {@code ownedBy}: a controller reference to the Service's UID. */
  static boolean ownedBy(MapValue slice, MapValue service) {
    for (Value r : Nested.list(slice, "metadata", "ownerReferences")) {
      if (Nested.str(r, "uid").equals(Meta.metaString(service, "uid"))
          && Nested.bool(r, "controller")) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code newEndpointSlice}. */
  MapValue newSlice(MapValue service, Group group) {
    String prefix = Meta.metaString(service, "name") + "-";
    if (prefix.length() > 253 - 5) {
      prefix = "endpointslice-";
    }
    MapValue ref = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Service"),
        "name", Value.of(Meta.metaString(service, "name")),
        "uid", Value.of(Meta.metaString(service, "uid")), "controller", Value.of(true),
        "blockOwnerDeletion", Value.of(true));
    MapValue meta = MapValue.ofEntries("generateName", Value.of(prefix),
        "namespace", Value.of(Meta.metaString(service, "namespace")),
        "labels", strings(labels(MapValue.empty(), service)),
        "ownerReferences", ListValue.of(List.of(ref)));
    MapValue.Builder b = MapValue.builder().put("apiVersion", Value.of("discovery.k8s.io/v1"))
        .put("kind", Value.of("EndpointSlice")).put("metadata", meta)
        .put("addressType", Value.of(group.addressType()))
        .put("endpoints", ListValue.empty());
    if (!group.ports().isEmpty()) {
      b.put("ports", ListValue.of(group.ports()));
    }
    return b.build();
  }

  /**
   * kube's {@code setEndpointSliceLabels}: the Service's labels (its reserved ones dropped),
   * the headless label for a Service without a cluster IP, and the service-name and
   * managed-by labels.
   */
  Map<String, String> labels(MapValue slice, MapValue service) {
    Map<String, String> out = new LinkedHashMap<>();
    Meta.labels(service).forEach((k, v) -> {
      if (!k.equals(LABEL_SERVICE_NAME) && !k.equals(LABEL_MANAGED_BY)) {
        out.put(k, v);
      }
    });
    if (!ServiceEndpoints.serviceIpSet(service)) {
      out.put(ServiceEndpoints.HEADLESS, "");
    } else {
      out.remove(ServiceEndpoints.HEADLESS);
    }
    out.put(LABEL_SERVICE_NAME, Meta.metaString(service, "name"));
    out.put(LABEL_MANAGED_BY, controllerName);
    return out;
  }

  private static MapValue withLabels(MapValue slice, Map<String, String> labels) {
    return Meta.withMeta(slice, "labels", strings(labels));
  }

  static MapValue strings(Map<String, String> m) {
    MapValue.Builder b = MapValue.builder();
    m.forEach((k, v) -> b.put(k, Value.of(v)));
    return b.build();
  }

  /** kube's {@code getEndpointPorts}. */
  static List<MapValue> endpointPorts(MapValue service, MapValue pod) {
    List<MapValue> out = new ArrayList<>();
    List<Value> ports = Nested.list(service, "spec", "ports");
    if (ports.isEmpty() && Nested.str(service, "spec", "clusterIP").equals("None")) {
      return out;
    }
    for (Value port : ports) {
      OptionalLong number = ServiceEndpoints.findPort(pod, port);
      if (number.isEmpty()) {
        continue;
      }
      MapValue.Builder p = MapValue.builder().put("name", Value.of(Nested.str(port, "name")))
          .put("port", Value.of(number.getAsLong()))
          .put("protocol", Value.of(ServiceEndpoints.protocol(port)));
      Value app = Nested.getOrNull(port, "appProtocol");
      if (app != null) {
        p.put("appProtocol", app);
      }
      out.add(p.build());
    }
    return out;
  }

  /** {@code NewPortMapKey}: the ports in a canonical order. */
  static List<MapValue> portKey(List<? extends Value> ports) {
    List<MapValue> out = new ArrayList<>();
    for (Value p : ports) {
      MapValue m = (MapValue) p;
      // a stored port without a name is the same as one named ""
      out.add(m.getOrNull("name") == null ? m.with("name", Value.of("")) : m);
    }
    out.sort(Comparator.comparing((MapValue p) -> Nested.str(p, "name"))
        .thenComparingLong(p -> Nested.integer(p, "port"))
        .thenComparing(p -> Nested.str(p, "protocol")));
    return out;
  }

  /** kube's {@code podToEndpoint}. */
  static MapValue podToEndpoint(MapValue pod, Optional<MapValue> node, MapValue service,
      String addressType) {
    boolean serving = Pods.ready(pod);
    boolean terminating = Nested.has(pod, "metadata", "deletionTimestamp");
    boolean ready = Nested.bool(service, "spec", "publishNotReadyAddresses")
        || (serving && !terminating);
    List<String> addresses = new ArrayList<>();
    for (String ip : ServiceEndpoints.podIps(pod)) {
      if (ServiceEndpoints.isIpv6(ip) == addressType.equals("IPv6")) {
        addresses.add(ip);
      }
    }
    MapValue.Builder b = MapValue.builder().put("addresses", ListValue.ofStrings(addresses))
        .put("conditions", MapValue.ofEntries("ready", Value.of(ready),
            "serving", Value.of(serving), "terminating", Value.of(terminating)))
        .put("targetRef", MapValue.ofEntries("kind", Value.of("Pod"),
            "namespace", Value.of(Meta.metaString(pod, "namespace")),
            "name", Value.of(Meta.metaString(pod, "name")),
            "uid", Value.of(Meta.metaString(pod, "uid"))));
    String nodeName = Nested.str(pod, "spec", "nodeName");
    if (!nodeName.isEmpty()) {
      b.put("nodeName", Value.of(nodeName));
    }
    if (node.isPresent()) {
      String zone = Meta.labels(node.get()).getOrDefault(ZONE_LABEL, "");
      if (!zone.isEmpty()) {
        b.put("zone", Value.of(zone));
      }
    }
    if (ServiceEndpoints.shouldSetHostname(pod, service)) {
      b.put("hostname", Value.of(Nested.str(pod, "spec", "hostname")));
    }
    return b.build();
  }

  /**
   * kube's {@code EndpointsEqualBeyondHash}: same conditions, zone, node, hints and target
   * (its resource version aside).
   */
  static boolean equalBeyondHash(Value a, Value b) {
    for (String f : List.of("conditions", "zone", "nodeName", "hints")) {
      if (!java.util.Objects.equals(Nested.getOrNull(a, f), Nested.getOrNull(b, f))) {
        return false;
      }
    }
    MapValue ta = Nested.mapOrNull(a, "targetRef");
    MapValue tb = Nested.mapOrNull(b, "targetRef");
    if (ta == null || tb == null) {
      return ta == tb;
    }
    return ta.without("resourceVersion").equals(tb.without("resourceVersion"));
  }

  /**
   * kube's {@code EndpointSet}: endpoints by their identity (addresses, hostname, target
   * namespace and name), in insertion order.
   */
  static final class EndpointSet {
    private record Key(List<Value> addresses, String hostname, String namespace, String name) {}

    private final Map<Key, MapValue> items = new LinkedHashMap<>();

    private static Key key(Value ep) {
      return new Key(Nested.list(ep, "addresses"), Nested.str(ep, "hostname"),
          Nested.str(ep, "targetRef", "namespace"), Nested.str(ep, "targetRef", "name"));
    }

    void add(MapValue ep) {
      items.put(key(ep), ep);
    }

    Optional<MapValue> get(Value ep) {
      return Optional.ofNullable(items.get(key(ep)));
    }

    void remove(Value ep) {
      items.remove(key(ep));
    }

    int size() {
      return items.size();
    }

    MapValue pop() {
      Iterator<Map.Entry<Key, MapValue>> it = items.entrySet().iterator();
      MapValue v = it.next().getValue();
      it.remove();
      return v;
    }
  }
}
