/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kube-controller-manager's leader election (client-go leaderelection on the
 * {@code kube-system/kube-controller-manager} Lease): the record kube writes, one leader among
 * managers over one store, takeover once the lease expires on the server clock, and loss of
 * leadership when renewing fails for the renew deadline. Expected values come from client-go's
 * {@code tryAcquireOrRenew} and {@code LeaderElectionRecordToLeaseSpec} and
 * kube-controller-manager's defaults (15s, 10s, 2s; identity {@code <hostname>_<uuid>}).
 */
class LeaderElectionTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");
  private static final GroupVersionResource RS =
      new GroupVersionResource("apps", "v1", "replicasets");
  private static final Instant START = Instant.parse("2026-01-01T00:00:00.123456Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(START);
  private final Clock clock = new Clock() {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closing(T c) {
    toClose.add(c);
    return c;
  }

  /** kube's durations with a short retry period, so that attempts follow each other quickly. */
  private static LeaderElection election(String identity) {
    return new LeaderElection(identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofMillis(100));
  }

  private ControllerManager manager(ApiServer api, String identity) {
    return closing(ControllerManager.builder(api).clock(clock).controllers("replicaset")
        .leaderElection(election(identity)).start());
  }

  private static MapValue lease(ApiServer api) {
    return Nested.map(api.resources(LEASES).namespace("kube-system")
        .get("kube-controller-manager"), "spec");
  }

  private static String micro(Instant t) {
    return t.toString().replace("Z", "").concat("000000").substring(0, 26) + "Z";
  }

  @Test
  void defaultsAreKubeControllerManagers() {
    LeaderElection d = LeaderElection.defaults();
    assertThat(d.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(d.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(d.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.identity()).matches(LeaderElection.hostname()
        + "_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  }

  @Test
  void badDurationsAreRefusedWithClientGosMessages() {
    assertThatThrownBy(() -> new LeaderElection("a", Duration.ofSeconds(10),
        Duration.ofSeconds(10), Duration.ofSeconds(2)))
        .hasMessage("leaseDuration must be greater than renewDeadline");
    assertThatThrownBy(() -> new LeaderElection("a", Duration.ofSeconds(15),
        Duration.ofSeconds(2), Duration.ofSeconds(2)))
        .hasMessage("renewDeadline must be greater than retryPeriod*JitterFactor");
    assertThatThrownBy(() -> new LeaderElection("", Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2)))
        .hasMessage("Lock identity is empty");
  }

  @Test
  void aSingleManagerTakesTheLeaseAsClientGoWritesIt() {
    ApiServer api = closing(ApiServer.builder().clock(clock).build());
    ControllerManager m = manager(api, "host_a");
    assertThat(m.awaitLeading(WAIT)).isTrue();
    assertThat(m.isLeader()).isTrue();
    assertThat(lease(api)).isEqualTo(Json.read("{\"holderIdentity\":\"host_a\","
        + "\"leaseDurationSeconds\":15,\"acquireTime\":\"" + micro(START) + "\","
        + "\"renewTime\":\"" + micro(START) + "\",\"leaseTransitions\":0}"));
    // renewals move renewTime and keep acquireTime
    now.set(START.plusSeconds(1));
    awaitLease(api, "renewTime", micro(START.plusSeconds(1)));
    assertThat(Nested.str(lease(api), "acquireTime")).isEqualTo(micro(START));
    // the leader's controllers run
    api.resources(RS).namespace("default").create(Json.read(replicaSet()));
    assertThat(m.awaitIdle(WAIT)).isTrue();
    assertThat(api.resources("v1", "pods").namespace("default").list()).hasSize(2);
  }

  @Test
  void oneOfTwoManagersLeadsAndTheOtherTakesOverOnceTheLeaseExpires() {
    ApiServer api = closing(ApiServer.builder().clock(clock).build());
    ControllerManager a = manager(api, "host_a");
    assertThat(a.awaitLeading(WAIT)).isTrue();
    ControllerManager b = manager(api, "host_b");
    // the lease is valid on the server clock: b keeps trying and failing
    assertThat(b.awaitLeading(Duration.ofMillis(500))).isFalse();
    assertThat(Nested.str(lease(api), "holderIdentity")).isEqualTo("host_a");
    a.close();
    // not expired yet: 14s after b last saw it change
    now.set(START.plusSeconds(14));
    assertThat(b.awaitLeading(Duration.ofMillis(500))).isFalse();
    now.set(START.plusSeconds(16));
    assertThat(b.awaitLeading(WAIT)).isTrue();
    assertThat(lease(api)).isEqualTo(Json.read("{\"holderIdentity\":\"host_b\","
        + "\"leaseDurationSeconds\":15,\"acquireTime\":\"" + micro(START.plusSeconds(16))
        + "\",\"renewTime\":\"" + micro(START.plusSeconds(16)) + "\",\"leaseTransitions\":1}"));
    api.resources(RS).namespace("default").create(Json.read(replicaSet()));
    assertThat(b.awaitIdle(WAIT)).isTrue();
    assertThat(api.resources("v1", "pods").namespace("default").list()).hasSize(2);
  }

  @Test
  void aLeaderThatCannotRenewForTheRenewDeadlineStopsItsControllers() {
    ApiServer api = closing(ApiServer.builder().clock(clock).build());
    ControllerManager a = manager(api, "host_a");
    assertThat(a.awaitLeading(WAIT)).isTrue();
    // another holder writes the lease (as a partitioned-away leader's successor would)
    ResourceClient leases = api.resources(LEASES).namespace("kube-system");
    leases.patch("kube-controller-manager", PatchType.MERGE_PATCH,
        "{\"spec\":{\"holderIdentity\":\"host_x\",\"leaseTransitions\":1}}");
    now.set(START.plusSeconds(11));
    awaitNotLeading(a);
    api.resources(RS).namespace("default").create(Json.read(replicaSet()));
    assertThat(a.awaitIdle(WAIT)).isTrue();
    assertThat(api.resources("v1", "pods").namespace("default").list()).isEmpty();
    // it campaigns again and gets the lease once host_x's has expired
    now.set(START.plusSeconds(27));
    assertThat(a.awaitLeading(WAIT)).isTrue();
    assertThat(Nested.integer(lease(api), "leaseTransitions")).isEqualTo(2);
    assertThat(a.awaitIdle(WAIT)).isTrue();
    assertThat(api.resources("v1", "pods").namespace("default").list()).hasSize(2);
  }

  @Test
  void twoServersOnOneEtcdRunTheControllersInOneOfThem() {
    EtcdServer etcd = closing(EtcdServer.start());
    ApiServer first = closing(ApiServer.builder().clock(clock).store(etcdStore(etcd)).build());
    ApiServer second = closing(ApiServer.builder().clock(clock).store(etcdStore(etcd)).build());
    ControllerManager a = manager(first, "host_a");
    assertThat(a.awaitLeading(WAIT)).isTrue();
    ControllerManager b = manager(second, "host_b");
    assertThat(b.awaitLeading(Duration.ofMillis(500))).isFalse();
    // written through the second server, acted on by the first one's controllers
    second.resources(RS).namespace("default").create(Json.read(replicaSet()));
    awaitPods(second, 2);
    a.close();
    first.close();
    now.set(START.plusSeconds(16));
    assertThat(b.awaitLeading(WAIT)).isTrue();
    MapValue spec = lease(second);
    assertThat(Nested.str(spec, "holderIdentity")).isEqualTo("host_b");
    assertThat(Nested.integer(spec, "leaseTransitions")).isEqualTo(1);
    second.resources(RS).namespace("default").patch("web", PatchType.MERGE_PATCH,
        "{\"spec\":{\"replicas\":3}}");
    assertThat(b.awaitIdle(WAIT)).isTrue();
    awaitPods(second, 3);
  }

  /** A store over the shared etcd, closed after the test; patient on a loaded machine. */
  private EtcdStore etcdStore(EtcdServer etcd) {
    return closing(EtcdStore.builder().endpoints(etcd.clientUri())
        .requestTimeout(Duration.ofSeconds(30)).build());
  }

  private static String replicaSet() {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\"},"
        + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
        + "[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
  }

  /**
   * Waits for a condition on what the store holds: checked again at every change a watch of
   * {@code resource} in {@code namespace} delivers.
   */
  private static void await(ApiServer api, GroupVersionResource resource, String namespace,
      String what, java.util.function.BooleanSupplier condition) {
    io.apiserver4j.apiserver.ApiWatch watch = api.resources(resource).namespace(namespace)
        .watch();
    try {
      while (!condition.getAsBoolean()) {
        assertThat(watch.poll(WAIT)).as("waiting for " + what).isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for " + what, e);
    } finally {
      watch.close();
    }
  }

  private static void awaitLease(ApiServer api, String field, String value) {
    await(api, LEASES, "kube-system", "lease " + field + " " + value,
        () -> Nested.str(lease(api), field).equals(value));
  }

  private static void awaitNotLeading(ControllerManager m) {
    assertThat(m.awaitNotLeading(WAIT)).as("leadership lost").isTrue();
  }

  private static void awaitPods(ApiServer api, int count) {
    await(api, new GroupVersionResource("", "v1", "pods"), "default", count + " pods",
        () -> api.resources("v1", "pods").namespace("default").list().size() == count);
  }
}
