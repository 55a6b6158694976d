/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.endpoint;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Endpoints subsets as kube's pkg/api/v1/endpoints ({@code RepackSubsets}, {@code SortSubsets})
 * and the endpoints controller's truncation build them.
 *
 * <p>Order: kube sorts addresses by IP, then target UID, and orders ports and subsets by an
 * md5 of Go's printed structs, an order no client can rely on; here ports sort by name, then
 * number, then protocol, and subsets by their first address, then their ports, so the order is
 * deterministic too.
 */
final class Subsets {
  /** kube's {@code maxCapacity} of an Endpoints object. */
  static final int MAX_CAPACITY = 1000;

  private Subsets() {}

  /** One address offering one port ({@code port} empty: a headless Service without ports). */
  record Entry(MapValue address, boolean ready, Optional<MapValue> port) {}

  /** An address's identity: its IP and target UID ({@code addressKey}). */
  private record AddressKey(String ip, String uid) {}

  /**
   * {@code RepackSubsets}: one subset per distinct set of (address, ready) pairs, carrying every
   * port offered by exactly that set; an address both ready and not ready for a port is ready.
   */
  static ListValue repack(List<Entry> entries) {
    Map<AddressKey, MapValue> addresses = new LinkedHashMap<>();
    Map<Optional<MapValue>, Map<AddressKey, Boolean>> byPort = new LinkedHashMap<>();
    for (Entry e : entries) {
      AddressKey key = key(e.address());
      addresses.putIfAbsent(key, e.address());
      Map<AddressKey, Boolean> set = byPort.computeIfAbsent(e.port(), p -> new LinkedHashMap<>());
      Boolean previous = set.get(key);
      if (previous == null || !previous) {
        set.put(key, e.ready());
      }
    }
    Map<Map<AddressKey, Boolean>, List<MapValue>> portsBySet = new LinkedHashMap<>();
    for (Map.Entry<Optional<MapValue>, Map<AddressKey, Boolean>> e : byPort.entrySet()) {
      List<MapValue> ports = portsBySet.computeIfAbsent(e.getValue(), s -> new ArrayList<>());
      e.getKey().ifPresent(ports::add);
    }
    List<MapValue> subsets = new ArrayList<>();
    for (Map.Entry<Map<AddressKey, Boolean>, List<MapValue>> e : portsBySet.entrySet()) {
      List<MapValue> ready = new ArrayList<>();
      List<MapValue> notReady = new ArrayList<>();
      for (Map.Entry<AddressKey, Boolean> a : e.getKey().entrySet()) {
        (a.getValue() ? ready : notReady).add(addresses.get(a.getKey()));
      }
      ready.sort(ADDRESS_ORDER);
      notReady.sort(ADDRESS_ORDER);
      List<MapValue> ports = new ArrayList<>(e.getValue());
      ports.sort(PORT_ORDER);
      subsets.add(subset(ready, notReady, ports));
    }
    subsets.sort(Comparator.comparing(Json::write));
    return ListValue.of(subsets);
  }

  private static MapValue subset(List<MapValue> ready, List<MapValue> notReady,
      List<MapValue> ports) {
    MapValue.Builder b = MapValue.builder();
    if (!ready.isEmpty()) {
      b.put("addresses", ListValue.of(ready));
    }
    if (!notReady.isEmpty()) {
      b.put("notReadyAddresses", ListValue.of(notReady));
    }
    if (!ports.isEmpty()) {
      b.put("ports", ListValue.of(ports));
    }
    return b.build();
  }

  private static AddressKey key(Value address) {
    return new AddressKey(Nested.str(address, "ip"), Nested.str(address, "targetRef", "uid"));
  }

  /** {@code LessEndpointAddress}: by IP bytes, then an address without a target first, then UID. */
  static final Comparator<MapValue> ADDRESS_ORDER = (a, b) -> {
    int c = Nested.str(a, "ip").compareTo(Nested.str(b, "ip"));
    if (c != 0) {
      return c;
    }
    boolean at = Nested.has(a, "targetRef");
    boolean bt = Nested.has(b, "targetRef");
    if (at != bt) {
      return at ? 1 : -1;
    }
    return Nested.str(a, "targetRef", "uid").compareTo(Nested.str(b, "targetRef", "uid"));
  };

  private static final Comparator<MapValue> PORT_ORDER = Comparator
      .comparing((MapValue p) -> Nested.str(p, "name"))
      .thenComparingLong(p -> Nested.integer(p, "port"))
      .thenComparing(p -> Nested.str(p, "protocol"));

  /** The addresses, ready and not, of {@code subsets}. */
  static int count(List<Value> subsets) {
    int n = 0;
    for (Value s : subsets) {
      n += Nested.list(s, "addresses").size() + Nested.list(s, "notReadyAddresses").size();
    }
    return n;
  }

  /**
   * kube's {@code truncateEndpoints}: past {@value #MAX_CAPACITY} addresses, keeps ready ones
   * first, each subset getting its proportion (rounded up) of what fits. Empty when nothing
   * needs truncating.
   */
  static Optional<ListValue> truncate(ListValue subsets) {
    int totalReady = 0;
    int totalNotReady = 0;
    for (Value s : subsets.items()) {
      totalReady += Nested.list(s, "addresses").size();
      totalNotReady += Nested.list(s, "notReadyAddresses").size();
    }
    if (totalReady + totalNotReady <= MAX_CAPACITY) {
      return Optional.empty();
    }
    boolean truncateReady = totalReady > MAX_CAPACITY;
    int max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - totalReady;
    int numTotal = truncateReady ? totalReady : totalNotReady;
    int canBeAdded = max;
    List<MapValue> out = new ArrayList<>();
    for (Value v : subsets.items()) {
      MapValue s = (MapValue) v;
      String field = truncateReady ? "addresses" : "notReadyAddresses";
      List<Value> list = Nested.list(s, field);
      int toBeAdded = (int) Math.ceil(((double) list.size() / numTotal) * max);
      toBeAdded = Math.min(toBeAdded, canBeAdded);
      List<Value> kept = list.size() <= toBeAdded ? list : list.subList(0, toBeAdded);
      MapValue t = kept.isEmpty() ? s.without(field) : s.with(field, ListValue.of(kept));
      if (truncateReady) {
        t = t.without("notReadyAddresses");
      }
      canBeAdded -= kept.size();
      out.add(t);
    }
    return Optional.of(ListValue.of(out));
  }

  /**
   * {@code endpointSubsetsEqualIgnoreResourceVersion}: equal once the target references'
   * resource versions are dropped.
   */
  static boolean equalIgnoringResourceVersion(List<Value> a, ListValue b) {
    return stripVersions(a).equals(stripVersions(b.items()));
  }

  private static List<Value> stripVersions(List<Value> subsets) {
    List<Value> out = new ArrayList<>();
    for (Value v : subsets) {
      MapValue s = (MapValue) v;
      for (String field : List.of("addresses", "notReadyAddresses")) {
        if (s.getOrNull(field) instanceof ListValue l) {
          List<Value> addrs = new ArrayList<>();
          for (Value a : l.items()) {
            addrs.add(a instanceof MapValue m && Nested.mapOrNull(m, "targetRef") != null
                ? Nested.remove(m, "targetRef", "resourceVersion") : a);
          }
          s = s.with(field, ListValue.of(addrs));
        }
      }
      out.add(s);
    }
    return out;
  }
}
