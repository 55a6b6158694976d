/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.SERVICES;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Service allocation state as kube 1.33+ persists it: an {@code IPAddress} per cluster IP
 * (kube's ipallocator labels and parent reference), the default ServiceCIDR {@code kubernetes}
 * (Ready), node ports in stored state, what failed writes and dry runs leave behind (nothing),
 * the repair at start, and kube's ipallocator/portallocator test expectations
 * ({@code TestAllocateReservedIPAllocator}, {@code TestAllocateIPAllocator},
 * {@code calculateRangeOffset}) through the API.
 */
class ServiceAllocationStateTest {
  private static final GroupVersionResource IP_ADDRESSES =
      new GroupVersionResource("networking.k8s.io", "v1", "ipaddresses");
  private static final GroupVersionResource SERVICE_CIDRS =
      new GroupVersionResource("networking.k8s.io", "v1", "servicecidrs");

  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final TestClock clock = new TestClock();
  private final AtomicInteger uids = new AtomicInteger();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  /** A server as kube-apiserver starts (bootstrap, allocator start) on {@code b}. */
  private ApiServer server(ApiServer.Builder b) {
    ApiServer s = b.clock(clock).random(new Random(7))
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    closeables.add(0, s);
    return s;
  }

  private static MapValue svc(String name, String spec) {
    return yaml("apiVersion: v1\nkind: Service\nmetadata: {name: " + name + "}\nspec: " + spec);
  }

  private static ApiResponse create(ApiServer s, String name, String spec) {
    return s.handle(Fixtures.req(Verb.CREATE, SERVICES, "default", "").body(svc(name, spec))
        .fieldManager("test").build());
  }

  private static ApiResponse get(ApiServer s, GroupVersionResource r, String ns, String name) {
    return s.handle(Fixtures.req(Verb.GET, r, ns, name).build());
  }

  private static ApiResponse delete(ApiServer s, String name) {
    return s.handle(Fixtures.req(Verb.DELETE, SERVICES, "default", name).build());
  }

  private static long nodePort(MapValue svc) {
    return ((IntegerValue) ((MapValue) ((ListValue) Fixtures.at(svc, "spec", "ports")).get(0))
        .getOrNull("nodePort")).value();
  }

  @Test
  void everyClusterIpIsAnIpAddressWithKubesLabelsAndParentReference() {
    ApiServer s = server(ApiServer.builder());
    ApiResponse web = create(s, "web", "{ports: [{port: 80}]}");
    String ip = str(web.body(), "spec", "clusterIP");

    MapValue address = get(s, IP_ADDRESSES, "", ip).orThrow();
    // ipallocator.go createIPAddress: LabelIPAddressFamily, LabelManagedBy, serviceToRef
    assertThat(Json.write(address.getOrNull("metadata"))).contains(
        "\"labels\":{\"ipaddress.kubernetes.io/ip-family\":\"IPv4\","
            + "\"ipaddress.kubernetes.io/managed-by\":\"ipallocator.k8s.io\"}");
    assertThat(Json.write(address.getOrNull("spec"))).isEqualTo(
        "{\"parentRef\":{\"resource\":\"services\",\"namespace\":\"default\",\"name\":\"web\"}}");
    // the kubernetes Service holds the first address of the range, as an IPAddress too
    assertThat(str(get(s, IP_ADDRESSES, "", "10.0.0.1").body(), "spec", "parentRef", "name"))
        .isEqualTo("kubernetes");

    assertThat(delete(s, "web").code()).isEqualTo(200);
    assertThat(get(s, IP_ADDRESSES, "", ip).code()).isEqualTo(404);
  }

  @Test
  void theDefaultServiceCidrIsWrittenAtStartAndReady() {
    ApiServer s = server(ApiServer.builder());

    MapValue sc = get(s, SERVICE_CIDRS, "", "kubernetes").orThrow();
    assertThat(Json.write(sc.getOrNull("spec"))).isEqualTo("{\"cidrs\":[\"10.0.0.0/24\"]}");
    // default_servicecidr_controller.go syncStatus
    MapValue ready = (MapValue) ((ListValue) Fixtures.at(sc, "status", "conditions")).get(0);
    assertThat(str(ready, "type")).isEqualTo("Ready");
    assertThat(str(ready, "status")).isEqualTo("True");
    assertThat(str(ready, "message")).isEqualTo("Kubernetes default Service CIDR is ready");
  }

  @Test
  void aFailedOrDryRunCreateHoldsNothing() {
    ApiServer s = server(ApiServer.builder());
    // two ports without names: allocated first, refused by validation, given back
    ApiResponse invalid = create(s, "a", "{clusterIP: 10.0.0.60, type: NodePort, ports: ["
        + "{port: 80, nodePort: 30600}, {port: 81}]}");
    assertThat(invalid.code()).isEqualTo(422);
    assertThat(get(s, IP_ADDRESSES, "", "10.0.0.60").code()).isEqualTo(404);

    ApiResponse dry = s.handle(Fixtures.req(Verb.CREATE, SERVICES, "default", "")
        .body(svc("b", "{clusterIP: 10.0.0.61, type: NodePort, ports: [{port: 80,"
            + " nodePort: 30601}]}")).fieldManager("test").dryRun(true).build());
    assertThat(dry.code()).isEqualTo(201);
    assertThat(get(s, IP_ADDRESSES, "", "10.0.0.61").code()).isEqualTo(404);

    assertThat(create(s, "c", "{clusterIP: 10.0.0.60, type: NodePort, ports: [{port: 80,"
        + " nodePort: 30600}]}").code()).isEqualTo(201);
    assertThat(create(s, "d", "{clusterIP: 10.0.0.61, type: NodePort, ports: [{port: 80,"
        + " nodePort: 30601}]}").code()).isEqualTo(201);
  }

  @Test
  void theReservedBandIsUsedLastAsKubesTestAllocateReservedIpAllocator() {
    // 192.168.1.0/25: 126 addresses, calculateRangeOffset min(max(16, 128/16), 256) = 16
    ApiServer s = server(ApiServer.builder().serviceClusterIpRange("192.168.1.0/25"));
    // the kubernetes Service holds 192.168.1.1, in the static band
    Set<String> dynamic = new HashSet<>();
    for (int i = 0; i < 110; i++) {
      ApiResponse r = create(s, "d" + i, "{ports: [{port: 80}]}");
      assertThat(r.code()).as(str(r.body(), "message")).isEqualTo(201);
      dynamic.add(str(r.body(), "spec", "clusterIP"));
    }
    Set<String> upper = new HashSet<>();
    for (int i = 17; i <= 126; i++) {
      upper.add("192.168.1." + i);
    }
    assertThat(dynamic).isEqualTo(upper);
    for (int i = 2; i <= 16; i++) {
      assertThat(create(s, "s" + i, "{clusterIP: 192.168.1." + i + ", ports: [{port: 80}]}")
          .code()).isEqualTo(201);
    }
    ApiResponse full = create(s, "full", "{ports: [{port: 80}]}");
    // alloc.go allocIPs: an InternalError wraps the allocator's ErrFull
    assertThat(full.code()).isEqualTo(500);
    assertThat(str(full.body(), "message"))
        .isEqualTo("Internal error occurred: failed to allocate a serviceIP: range is full");

    assertThat(delete(s, "s10").code()).isEqualTo(200);
    ApiResponse again = create(s, "again", "{ports: [{port: 80}]}");
    assertThat(str(again.body(), "spec", "clusterIP")).isEqualTo("192.168.1.10");
  }

  @Test
  void outOfRangeAddressesAndTakenOnesAreRefusedAsKubesTestAllocateIpAllocator() {
    ApiServer s = server(ApiServer.builder().serviceClusterIpRange("192.168.1.0/24"));
    for (String ip : List.of("192.168.0.1", "192.168.1.0", "192.168.1.255", "192.168.2.2")) {
      ApiResponse r = create(s, "x", "{clusterIP: " + ip + ", ports: [{port: 80}]}");
      assertThat(r.code()).isEqualTo(422);
      assertThat(str(r.body(), "message")).endsWith("failed to allocate IP " + ip
          + ": the provided network does not match the current range");
    }
    // 192.168.1.1 is the kubernetes Service's
    assertThat(str(create(s, "taken", "{clusterIP: 192.168.1.1, ports: [{port: 80}]}").body(),
        "message")).endsWith("failed to allocate IP 192.168.1.1: provided IP is already"
            + " allocated");
  }

  @Test
  void nodePortsUseTheUpperBandFirstAsKubesPortAllocator() {
    // 30000-30128: 129 ports, calculateRangeOffset min(max(16, 129/32), 128) = 16
    ApiServer s = server(ApiServer.builder().serviceClusterIpRange("10.1.0.0/16")
        .serviceNodePortRange("30000-30128"));
    Set<Long> dynamic = new HashSet<>();
    for (int i = 0; i < 113; i++) {
      ApiResponse r = create(s, "d" + i, "{type: NodePort, ports: [{port: 80}]}");
      assertThat(r.code()).as(str(r.body(), "message")).isEqualTo(201);
      dynamic.add(nodePort(r.body()));
    }
    assertThat(dynamic).hasSize(113).allMatch(p -> p >= 30016 && p <= 30128);
    for (int p = 30000; p < 30016; p++) {
      assertThat(create(s, "s" + p, "{type: NodePort, ports: [{port: 80, nodePort: " + p
          + "}]}").code()).isEqualTo(201);
    }
    ApiResponse full = create(s, "full", "{type: NodePort, ports: [{port: 80}]}");
    assertThat(full.code()).isEqualTo(500);
    assertThat(str(full.body(), "message"))
        .isEqualTo("Internal error occurred: failed to allocate a nodePort: range is full");
    // the failed create gave its cluster IP back
    assertThat(((ListValue) s.handle(Fixtures.req(Verb.LIST, IP_ADDRESSES, "", "").build())
        .body().getOrNull("items")).size()).isEqualTo(1 + 113 + 16);

    assertThat(delete(s, "s30007").code()).isEqualTo(200);
    assertThat(nodePort(create(s, "again", "{type: NodePort, ports: [{port: 80}]}").body()))
        .isEqualTo(30007L);
  }

  @Test
  void aStartRepairsMissingAllocationsAndCleansOrphansAfterKubesGracePeriod() {
    InMemoryStore store = InMemoryStore.create();
    closeables.add(store);
    ApiServer first = server(ApiServer.builder().store(store));
    ApiResponse a = create(first, "a", "{type: NodePort, ports: [{port: 80}]}");
    String ip = str(a.body(), "spec", "clusterIP");
    long port = nodePort(a.body());
    // the allocation state is lost: the IPAddress and the node port bitmap
    assertThat(first.handle(Fixtures.req(Verb.DELETE, IP_ADDRESSES, "", ip).build()).code())
        .isEqualTo(200);
    store.delete(new ObjectKey("", "ranges", "", "servicenodeports"), Preconditions.none());
    // an address of the allocator whose Service never came
    assertThat(first.handle(Fixtures.req(Verb.CREATE, IP_ADDRESSES, "", "").body(yaml(
        "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: 10.0.0.70,"
            + " labels: {ipaddress.kubernetes.io/ip-family: IPv4,"
            + " ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io}}\n"
            + "spec: {parentRef: {resource: services, namespace: default, name: ghost}}"))
        .build()).code()).isEqualTo(201);
    first.close();

    clock.advance(Duration.ofSeconds(30));
    ApiServer second = server(ApiServer.builder().store(store));
    assertThat(str(get(second, IP_ADDRESSES, "", ip).body(), "spec", "parentRef", "name"))
        .isEqualTo("a");
    assertThat(str(create(second, "b", "{type: NodePort, ports: [{port: 80, nodePort: " + port
        + "}]}").body(), "message")).endsWith("provided port is already allocated");
    // younger than repairip's 60 s grace period: it may be a Service being created
    assertThat(get(second, IP_ADDRESSES, "", "10.0.0.70").code()).isEqualTo(200);
    second.close();

    clock.advance(Duration.ofSeconds(31));
    ApiServer third = server(ApiServer.builder().store(store));
    assertThat(get(third, IP_ADDRESSES, "", "10.0.0.70").code()).isEqualTo(404);
    assertThat(get(third, IP_ADDRESSES, "", ip).code()).isEqualTo(200);
  }

  @Test
  void twoServersOnOneStoreNeverShareAnAddressOrPort() throws Exception {
    InMemoryStore store = InMemoryStore.create();
    closeables.add(store);
    List<ApiServer> servers = List.of(server(ApiServer.builder().store(store)),
        server(ApiServer.builder().store(store)));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<ApiResponse>> futures = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        ApiServer s = servers.get(i % 2);
        String name = "s" + i;
        futures.add(pool.submit(() -> create(s, name, "{type: NodePort, ports: [{port: 80}]}")));
      }
      Set<String> ips = new HashSet<>();
      Set<Long> ports = new HashSet<>();
      for (Future<ApiResponse> fu : futures) {
        ApiResponse r = fu.get();
        assertThat(r.code()).as(str(r.body(), "message")).isEqualTo(201);
        ips.add(str(r.body(), "spec", "clusterIP"));
        ports.add(nodePort(r.body()));
      }
      assertThat(ips).hasSize(200);
      assertThat(ports).hasSize(200);
      Value items = servers.get(0).handle(Fixtures.req(Verb.LIST, IP_ADDRESSES, "", "").build())
          .body().getOrNull("items");
      assertThat(((ListValue) items).size()).isEqualTo(201); // and the kubernetes Service's
    } finally {
      pool.shutdownNow();
    }
  }
}
