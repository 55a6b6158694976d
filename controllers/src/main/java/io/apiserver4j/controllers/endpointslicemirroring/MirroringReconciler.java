/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpointslicemirroring;

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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's mirroring {@code reconciler} (pkg/controller/endpointslicemirroring/reconciler.go):
 * the endpoints of each subset, by address type of their IP (addresses that are no IP are
 * skipped), at most {@code maxEndpointsPerSubset} per subset, go to one slice per (ports,
 * address type), which carries the Endpoints' labels and annotations (but the trigger time and
 * {@code kubectl.kubernetes.io/last-applied-configuration}); extra slices of a key are deleted,
 * and creates reuse slices being deleted. Not thread-safe: one call per Endpoints at a time.
 */
final class MirroringReconciler {
  static final String LABEL_SERVICE_NAME = "kubernetes.io/service-name";
  static final String LABEL_MANAGED_BY = "endpointslice.kubernetes.io/managed-by";
  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  /** Records a {@code Warning} Event about the Endpoints being mirrored. */
  @FunctionalInterface
  interface Warnings {
    void warn(MapValue endpoints, String reason, String message);
  }


  /** The key of a group of mirrored slices: kube's {@code addrTypePortMapKey}. */
  record Key(List<MapValue> ports, String addressType) {}

  private final int maxEndpointsPerSubset;
  private final EndpointSliceWriter writer;
  private final Warnings warnings;
  private final EndpointSliceTracker tracker;

  MirroringReconciler(int maxEndpointsPerSubset, EndpointSliceWriter writer, Warnings warnings,
      EndpointSliceTracker tracker) {
    this.maxEndpointsPerSubset = maxEndpointsPerSubset;
    this.writer = writer;
    this.warnings = warnings;
    this.tracker = tracker;
  }

  /** kube's {@code reconcile}; throws the first failed write. */
  void reconcile(MapValue endpoints, List<MapValue> existing) {
    Map<Key, Map<List<Object>, MapValue>> desired = new LinkedHashMap<>();
    Map<Key, List<MapValue>> portsByKey = new LinkedHashMap<>();
    int invalid = 0;
    int skipped = 0;
    for (Value subset : Nested.list(endpoints, "subsets")) {
      List<MapValue> ports = ports(Nested.list(subset, "ports"));
      int added = 0;
      int total = Nested.list(subset, "addresses").size()
          + Nested.list(subset, "notReadyAddresses").size();
      for (String field : List.of("addresses", "notReadyAddresses")) {
        boolean ready = field.equals("addresses");
        for (Value address : Nested.list(subset, field)) {
          if (added >= maxEndpointsPerSubset) {
            break;
          }
          String ip = Nested.str(address, "ip");
          String type = addressType(ip);
          if (type == null) {
            invalid++;
            continue;
          }
          Key key = new Key(sortedPorts(ports), type);
          portsByKey.putIfAbsent(key, ports);
          MapValue ep = addressToEndpoint(address, ready);
          desired.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(identity(ep), ep);
          added++;
        }
      }
      skipped += total - added;
    }
    if (invalid > 0) {
      warnings.warn(endpoints, "InvalidIPAddress", "Skipped " + invalid
          + " invalid IP addresses when mirroring to EndpointSlices");
    }
    if (skipped > invalid) {
      warnings.warn(endpoints, "TooManyAddressesToMirror", "A max of " + maxEndpointsPerSubset
          + " addresses can be mirrored to EndpointSlices per Endpoints subset. " + skipped
          + " addresses were skipped");
    }
    Map<Key, List<MapValue>> existingByKey = new LinkedHashMap<>();
    for (MapValue slice : existing) {
      existingByKey.computeIfAbsent(new Key(sortedPorts(ports(Nested.list(slice, "ports"))),
          Nested.str(slice, "addressType")), k -> new ArrayList<>()).add(slice);
    }
    List<MapValue> toCreate = new ArrayList<>();
    List<MapValue> toUpdate = new ArrayList<>();
    List<MapValue> toDelete = new ArrayList<>();
    for (Map.Entry<Key, Map<List<Object>, MapValue>> e : desired.entrySet()) {
      List<MapValue> slices = existingByKey.getOrDefault(e.getKey(), List.of());
      reconcileByPortMapping(endpoints, slices, e.getValue(), portsByKey.get(e.getKey()),
          e.getKey().addressType(), toCreate, toUpdate, toDelete);
    }
    for (Map.Entry<Key, List<MapValue>> e : existingByKey.entrySet()) {
      if (!desired.containsKey(e.getKey())) {
        toDelete.addAll(e.getValue());
      }
    }
    finalizeWrites(endpoints, toCreate, toUpdate, toDelete);
  }

  private void reconcileByPortMapping(MapValue endpoints, List<MapValue> existing,
      Map<List<Object>, MapValue> desired, List<MapValue> ports, String addressType,
      List<MapValue> toCreate, List<MapValue> toUpdate, List<MapValue> toDelete) {
    String name = "";
    if (!existing.isEmpty()) {
      toDelete.addAll(existing.subList(1, existing.size()));
      MapValue first = existing.get(0);
      Map<String, String> compareLabels = new LinkedHashMap<>(Meta.labels(first));
      compareLabels.remove(LABEL_MANAGED_BY);
      compareLabels.remove(LABEL_SERVICE_NAME);
      if (sameEndpoints(first, desired)
          && Meta.labels(endpoints).equals(compareLabels)
          && mirroredAnnotations(endpoints).equals(Meta.annotations(first))) {
        return;
      }
      name = Meta.metaString(first, "name");
    }
    MapValue slice = newSlice(endpoints, ports, addressType, name);
    List<Value> eps = new ArrayList<>();
    for (MapValue ep : desired.values()) {
      if (eps.size() >= maxEndpointsPerSubset) {
        break;
      }
      eps.add(ep);
    }
    slice = slice.with("endpoints", ListValue.of(eps));
    (name.isEmpty() ? toCreate : toUpdate).add(slice);
  }

  /** kube's {@code totalChanges} is zero: the slice holds exactly the desired endpoints. */
  private static boolean sameEndpoints(MapValue slice, Map<List<Object>, MapValue> desired) {
    List<Value> current = Nested.list(slice, "endpoints");
    if (current.size() != desired.size()) {
      return false;
    }
    for (Value ep : current) {
      MapValue want = desired.get(identity(ep));
      if (want == null || !want.equals(ep)) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code recycleSlices} then the writes of {@code finalize}. */
  private void finalizeWrites(MapValue endpoints, List<MapValue> toCreate,
      List<MapValue> toUpdate, List<MapValue> toDelete) {
    for (Iterator<MapValue> c = toCreate.iterator(); c.hasNext(); ) {
      MapValue slice = c.next();
      for (Iterator<MapValue> d = toDelete.iterator(); d.hasNext(); ) {
        MapValue old = d.next();
        if (Nested.str(old, "addressType").equals(Nested.str(slice, "addressType"))) {
          MapValue meta = Meta.metadata(slice).without("generateName")
              .with("name", Value.of(Meta.metaString(old, "name")));
          toUpdate.add(slice.with("metadata", meta));
          c.remove();
          d.remove();
          break;
        }
      }
    }
    String key = Pods.key(endpoints);
    if (!Nested.has(endpoints, "metadata", "deletionTimestamp")) {
      for (MapValue slice : toCreate) {
        try {
          tracker.update(key, writer.create(slice));
        } catch (StatusException e) {
          if (e.status().causes().stream()
              .anyMatch(x -> x.type().equals("NamespaceTerminating"))) {
            return;
          }
          throw e;
        }
      }
    }
    for (MapValue slice : toUpdate) {
      tracker.update(key, writer.update(slice));
    }
    for (MapValue slice : toDelete) {
      writer.delete(slice);
      tracker.expectDeletion(key, slice);
    }
  }

  /** kube's mirroring {@code newEndpointSlice}. */
  static MapValue newSlice(MapValue endpoints, List<MapValue> ports, String addressType,
      String name) {
    MapValue ref = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind",
        Value.of("Endpoints"), "name", Value.of(Meta.metaString(endpoints, "name")),
        "uid", Value.of(Meta.metaString(endpoints, "uid")), "controller", Value.of(true),
        "blockOwnerDeletion", Value.of(true));
    Map<String, String> labels = new LinkedHashMap<>(Meta.labels(endpoints));
    labels.put(LABEL_SERVICE_NAME, Meta.metaString(endpoints, "name"));
    labels.put(LABEL_MANAGED_BY, MirroringController.CONTROLLER_NAME);
    MapValue.Builder meta = MapValue.builder();
    if (name.isEmpty()) {
      meta.put("generateName", Value.of(Meta.metaString(endpoints, "name") + "-"));
    } else {
      meta.put("name", Value.of(name));
    }
    meta.put("namespace", Value.of(Meta.metaString(endpoints, "namespace")))
        .put("labels", strings(labels));
    Map<String, String> annotations = mirroredAnnotations(endpoints);
    if (!annotations.isEmpty()) {
      meta.put("annotations", strings(annotations));
    }
    meta.put("ownerReferences", ListValue.of(List.of(ref)));
    MapValue.Builder b = MapValue.builder().put("apiVersion", Value.of("discovery.k8s.io/v1"))
        .put("kind", Value.of("EndpointSlice")).put("metadata", meta.build())
        .put("addressType", Value.of(addressType)).put("endpoints", ListValue.empty());
    if (!ports.isEmpty()) {
      b.put("ports", ListValue.of(ports));
    }
    return b.build();
  }

  private static Map<String, String> mirroredAnnotations(MapValue endpoints) {
    Map<String, String> out = new LinkedHashMap<>(Meta.annotations(endpoints));
    out.remove(ServiceEndpoints.TRIGGER_TIME);
    out.remove(LAST_APPLIED);
    return out;
  }

  /** kube's {@code addressToEndpoint}. */
  static MapValue addressToEndpoint(Value address, boolean ready) {
    MapValue.Builder b = MapValue.builder()
        .put("addresses", ListValue.ofStrings(List.of(Nested.str(address, "ip"))))
        .put("conditions", MapValue.ofEntries("ready", Value.of(ready)));
    Value target = Nested.getOrNull(address, "targetRef");
    if (target != null) {
      b.put("targetRef", target);
    }
    Value node = Nested.getOrNull(address, "nodeName");
    if (node != null) {
      b.put("nodeName", node);
    }
    String hostname = Nested.str(address, "hostname");
    if (!hostname.isEmpty()) {
      b.put("hostname", Value.of(hostname));
    }
    return b.build();
  }

  /** kube's {@code epPortsToEpsPorts}: every field carried, the name even when empty. */
  private static List<MapValue> ports(List<Value> endpointPorts) {
    List<MapValue> out = new ArrayList<>();
    for (Value p : endpointPorts) {
      MapValue.Builder b = MapValue.builder().put("name", Value.of(Nested.str(p, "name")))
          .put("port", Value.of(Nested.integer(p, "port")))
          .put("protocol", Value.of(ServiceEndpoints.protocol(p)));
      Value app = Nested.getOrNull(p, "appProtocol");
      if (app != null) {
        b.put("appProtocol", app);
      }
      out.add(b.build());
    }
    return out;
  }

  private static List<MapValue> sortedPorts(List<MapValue> ports) {
    List<MapValue> out = new ArrayList<>(ports);
    out.sort(Comparator.comparing((MapValue p) -> Nested.str(p, "name"))
        .thenComparingLong(p -> Nested.integer(p, "port"))
        .thenComparing(p -> Nested.str(p, "protocol")));
    return out;
  }

  /** kube's {@code getAddressType}: IPv4 or IPv6 for an IP literal, else null. */
  static String addressType(String ip) {
    if (ip.isEmpty()) {
      return null;
    }
    if (ip.indexOf(':') >= 0) {
      return ip.matches("[0-9a-fA-F:.]+") ? "IPv6" : null;
    }
    String[] parts = ip.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)
          || Integer.parseInt(part) > 255) {
        return null;
      }
    }
    return "IPv4";
  }

  /** kube's endpoint identity: addresses, hostname, target namespace and name. */
  private static List<Object> identity(Value ep) {
    return List.of(Nested.list(ep, "addresses"), Nested.str(ep, "hostname"),
        Nested.str(ep, "targetRef", "namespace"), Nested.str(ep, "targetRef", "name"));
  }

  private static MapValue strings(Map<String, String> m) {
    MapValue.Builder b = MapValue.builder();
    m.forEach((k, v) -> b.put(k, Value.of(v)));
    return b.build();
  }
}
