/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.SERVICES;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.InMemoryStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * kube's Service allocation (pkg/registry/core/service): cluster IPs and node ports from the
 * configured ranges, kube's 422 messages for taken and out-of-range values, headless services,
 * the single-stack {@code ipFamilies}/{@code ipFamilyPolicy}, release on delete and on a type
 * change, what a dry run answers, and a pool rebuilt from storage by a new server.
 */
class ServiceAllocationTest {
  private static final GroupVersionResource IP_ADDRESSES =
      new GroupVersionResource("networking.k8s.io", "v1", "ipaddresses");
  private final Fixtures f = new Fixtures();

  private static MapValue svc(String name, String spec) {
    return yaml("apiVersion: v1\nkind: Service\nmetadata: {name: " + name + "}\nspec: " + spec);
  }

  private ApiResponse create(Fixtures on, String name, String spec) {
    return on.create(SERVICES, "default", svc(name, spec), "test");
  }

  private ApiResponse dryRunCreate(String name, String spec) {
    return f.server.handle(Fixtures.req(Verb.CREATE, SERVICES, "default", "")
        .body(svc(name, spec)).fieldManager("test").dryRun(true).build());
  }

  private static Value nodePort(MapValue svc, int i) {
    return ((MapValue) ((io.apiserver4j.core.ListValue) Fixtures.at(svc, "spec", "ports")).get(i))
        .getOrNull("nodePort");
  }

  private static String message(ApiResponse r) {
    return str(r.body(), "message");
  }

  @Test
  void clusterIpsAreAllocatedFromTheRangeWithSingleStackFamilies() {
    ApiResponse a = create(f, "a", "{ports: [{port: 80}]}");
    ApiResponse b = create(f, "b", "{ports: [{port: 80}]}");

    assertThat(a.code()).isEqualTo(201);
    String ip = str(a.body(), "spec", "clusterIP");
    assertThat(ip).startsWith("10.").isNotEqualTo(str(b.body(), "spec", "clusterIP"));
    // kube-apiserver's default 10.0.0.0/24; a dynamic address comes from the upper band, above
    // the 16 addresses calculateRangeOffset keeps for requested ones (KEP-3070)
    assertThat(ip).startsWith("10.0.0.");
    assertThat(Integer.parseInt(ip.split("\\.")[3])).isBetween(17, 254);
    assertThat(Json.write(a.body().getOrNull("spec"))).contains("\"clusterIPs\":[\"" + ip
        + "\"]").contains("\"ipFamilies\":[\"IPv4\"]").contains("\"ipFamilyPolicy\":\"SingleStack\"");
  }

  @Test
  void aRequestedIpThatIsTakenOrOutOfRangeIsInvalid() {
    assertThat(create(f, "a", "{clusterIP: 10.0.0.20, ports: [{port: 80}]}").code())
        .isEqualTo(201);

    ApiResponse taken = create(f, "b", "{clusterIP: 10.0.0.20, ports: [{port: 80}]}");
    ApiResponse outside = create(f, "c", "{clusterIP: 10.1.0.5, ports: [{port: 80}]}");
    ApiResponse network = create(f, "d", "{clusterIP: 10.0.0.0, ports: [{port: 80}]}");

    assertThat(taken.code()).isEqualTo(422);
    assertThat(message(taken)).isEqualTo("Service \"b\" is invalid: spec.clusterIPs: Invalid"
        + " value: [\"10.0.0.20\"]: failed to allocate IP 10.0.0.20: provided IP is already"
        + " allocated");
    // 1.33+: the MetaAllocator finds no ServiceCIDR that can hand the address out
    // (cidrallocator.go getAllocator, ErrMismatchedNetwork), the network address included
    assertThat(message(outside)).isEqualTo("Service \"c\" is invalid: spec.clusterIPs: Invalid"
        + " value: [\"10.1.0.5\"]: failed to allocate IP 10.1.0.5: the provided network does not"
        + " match the current range");
    assertThat(network.code()).isEqualTo(422);
    assertThat(message(network)).endsWith("failed to allocate IP 10.0.0.0: the provided network"
        + " does not match the current range");
    assertThat(f.get(SERVICES, "default", "b").code()).isEqualTo(404);
  }

  @Test
  void serverSideApplyAllocatesOnCreateAndKeepsTheAddressOnLaterApplies() {
    String manifest = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: default}"
        + "\nspec: {type: NodePort, ports: [{port: 80}]}";
    ApiResponse first = f.apply(SERVICES, "default", "web", "kubectl", manifest);
    ApiResponse again = f.apply(SERVICES, "default", "web", "kubectl", manifest.replace(
        "port: 80", "port: 80, name: http"));

    assertThat(first.code()).as(message(first)).isEqualTo(201);
    assertThat(again.code()).as(message(again)).isEqualTo(200);
    assertThat(str(again.body(), "spec", "clusterIP"))
        .isEqualTo(str(first.body(), "spec", "clusterIP")).isNotEmpty();
    assertThat(nodePort(again.body(), 0)).isEqualTo(nodePort(first.body(), 0));
  }

  @Test
  void aHeadlessServiceHoldsNoAddress() {
    ApiResponse r = create(f, "h", "{clusterIP: None, selector: {app: a}}");

    assertThat(r.code()).isEqualTo(201);
    assertThat(Json.write(r.body().getOrNull("spec"))).contains("\"clusterIP\":\"None\"")
        .contains("\"clusterIPs\":[\"None\"]");
  }

  @Test
  void nodePortsAreAllocatedAndCheckedAgainstTheRange() {
    ApiResponse np = create(f, "np", "{type: NodePort, ports: [{port: 80, nodePort: 30100}, "
        + "{name: b, port: 81}]}");
    assertThat(np.code()).as(message(np)).isEqualTo(422); // two ports need names

    np = create(f, "np", "{type: NodePort, ports: [{name: a, port: 80, nodePort: 30100},"
        + " {name: b, port: 81}]}");
    assertThat(np.code()).as(message(np)).isEqualTo(201);
    long dynamic = ((io.apiserver4j.core.IntegerValue) nodePort(np.body(), 1)).value();
    assertThat(dynamic).isBetween(30000L, 32767L).isNotEqualTo(30100L);

    ApiResponse taken = create(f, "mm", "{type: NodePort, ports: [{port: 80, nodePort: 30100}]}");
    ApiResponse outside = create(f, "oo", "{type: NodePort, ports: [{port: 80, nodePort: 80}]}");
    assertThat(message(taken)).isEqualTo("Service \"mm\" is invalid: spec.ports[0].nodePort:"
        + " Invalid value: 30100: provided port is already allocated");
    assertThat(message(outside)).isEqualTo("Service \"oo\" is invalid: spec.ports[0].nodePort:"
        + " Invalid value: 80: provided port is not in the valid range. The range of valid ports"
        + " is 30000-32767");
  }

  @Test
  void aLocalLoadBalancerGetsAHealthCheckNodePort() {
    ApiResponse lb = create(f, "lb", "{type: LoadBalancer, externalTrafficPolicy: Local,"
        + " ports: [{port: 80}]}");

    assertThat(lb.code()).as(message(lb)).isEqualTo(201);
    assertThat(Fixtures.at(lb.body(), "spec", "healthCheckNodePort"))
        .isInstanceOf(io.apiserver4j.core.IntegerValue.class);
  }

  @Test
  void deleteAndTypeChangesReleaseWhatTheServiceHeld() {
    assertThat(create(f, "a", "{clusterIP: 10.0.0.30, type: NodePort, ports: [{port: 80,"
        + " nodePort: 30200}]}").code()).isEqualTo(201);
    // a PUT to ClusterIP that leaves the node port as it was drops it (dropTypeDependentFields)
    MapValue stored = f.get(SERVICES, "default", "a").orThrow();
    MapValue toClusterIp = Fixtures.yaml(Json.write(stored).replace("\"NodePort\"",
        "\"ClusterIP\"").replace(",\"externalTrafficPolicy\":\"Cluster\"", ""));
    ApiResponse changed = f.update(SERVICES, "default", "a", toClusterIp, "test");
    assertThat(changed.code()).as(message(changed)).isEqualTo(200);
    assertThat(Json.write(changed.body().getOrNull("spec"))).doesNotContain("nodePort");
    assertThat(create(f, "b", "{type: NodePort, ports: [{port: 80, nodePort: 30200}]}").code())
        .isEqualTo(201);

    assertThat(f.delete(SERVICES, "default", "a").code()).isEqualTo(200);
    assertThat(create(f, "c", "{clusterIP: 10.0.0.30, ports: [{port: 80}]}").code())
        .isEqualTo(201);
  }

  @Test
  void aDryRunChecksRequestedValuesAndHoldsNothing() {
    ApiResponse dry = dryRunCreate("a", "{type: NodePort, ports: [{port: 80}]}");

    // kube's dry-run allocators: the range's network address (ipallocator.go
    // allocateNextService) and the PortAllocationOperation's dummy port 32769 (operation.go)
    assertThat(dry.code()).isEqualTo(201);
    assertThat(str(dry.body(), "spec", "clusterIP")).isEqualTo("10.0.0.0");
    assertThat(Json.write(dry.body())).contains("\"nodePort\":32769");
    assertThat(f.get(SERVICES, "default", "a").code()).isEqualTo(404);

    assertThat(dryRunCreate("b", "{clusterIP: 10.0.0.40, ports: [{port: 80}]}").code())
        .isEqualTo(201);
    assertThat(create(f, "b", "{clusterIP: 10.0.0.40, type: NodePort, ports: [{port: 80,"
        + " nodePort: 30400}]}").code()).isEqualTo(201);
    // 1.33+: the IPAddress allocator's dry run checks the range only (ipallocator.go
    // allocateService), the dry-run port operation whether the port is taken (operation.go)
    assertThat(dryRunCreate("c", "{clusterIP: 10.0.0.40, ports: [{port: 80}]}").code())
        .isEqualTo(201);
    ApiResponse outside = dryRunCreate("c", "{clusterIP: 10.1.0.40, ports: [{port: 80}]}");
    assertThat(message(outside)).endsWith("failed to allocate IP 10.1.0.40: the provided IP"
        + " (10.1.0.40) is not in the valid range. The range of valid IPs is 10.0.0.0/24");
    ApiResponse port = dryRunCreate("d", "{type: NodePort, ports: [{port: 80, nodePort: 30400}]}");
    assertThat(message(port)).isEqualTo("Service \"d\" is invalid: spec.ports[0].nodePort:"
        + " Invalid value: 30400: provided port is already allocated");
    assertThat(f.get(IP_ADDRESSES, "", "10.0.0.0").code()).isEqualTo(404);
  }

  @Test
  void aNewServerOnTheSameStoreSeesWhatIsAllocated() {
    InMemoryStore store = InMemoryStore.create();
    Fixtures first = new Fixtures(ApiServer.builder().store(store));
    assertThat(create(first, "a", "{clusterIP: 10.0.0.50, type: NodePort, ports: [{port: 80,"
        + " nodePort: 30300}]}").code()).isEqualTo(201);
    first.server.close();

    Fixtures restarted = new Fixtures(ApiServer.builder().store(store));
    ApiResponse ip = create(restarted, "b", "{clusterIP: 10.0.0.50, ports: [{port: 80}]}");
    ApiResponse port = create(restarted, "c", "{type: NodePort, ports: [{port: 80,"
        + " nodePort: 30300}]}");

    assertThat(message(ip)).endsWith("provided IP is already allocated");
    assertThat(message(port)).endsWith("provided port is already allocated");
    restarted.server.close();
    store.close();
  }

  @Test
  void theRangesAreConfigurableAndTheKubernetesServiceGetsTheFirstAddress() {
    Fixtures small = new Fixtures(ApiServer.builder().serviceClusterIpRange("192.168.10.0/24")
        .serviceNodePortRange("31000-31010"));
    BootstrapObjects.ensure(small.server, "127.0.0.1", 6443);

    assertThat(str(small.get(SERVICES, "default", "kubernetes").body(), "spec", "clusterIP"))
        .isEqualTo("192.168.10.1");
    ApiResponse np = create(small, "np", "{type: NodePort, ports: [{port: 80}]}");
    assertThat(str(np.body(), "spec", "clusterIP")).startsWith("192.168.10.");
    assertThat(Json.write(np.body())).containsPattern("\"nodePort\":310(0[0-9]|10)");
    assertThatThrownBy(() -> ApiServer.builder().serviceClusterIpRange("10.0.0.0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10.0.0.0");
    assertThatThrownBy(() -> ApiServer.builder().serviceNodePortRange("32767-30000"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentCreatesNeverShareAnAddress() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<ApiResponse>> futures = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        String name = "s" + i;
        futures.add(pool.submit(() -> create(f, name, "{type: NodePort, ports: [{port: 80}]}")));
      }
      Set<String> ips = new HashSet<>();
      Set<String> ports = new HashSet<>();
      for (Future<ApiResponse> fu : futures) {
        ApiResponse r = fu.get();
        assertThat(r.code()).as(message(r)).isEqualTo(201);
        ips.add(str(r.body(), "spec", "clusterIP"));
        Value np = nodePort(r.body(), 0);
        ports.add(np.toString());
      }
      assertThat(ips).hasSize(32);
      assertThat(ports).hasSize(32);
    } finally {
      pool.shutdownNow();
    }
  }
}
