/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static io.apiserver4j.integration.TestValues.at;
import static io.apiserver4j.integration.TestValues.req;
import static io.apiserver4j.integration.TestValues.str;
import static io.apiserver4j.integration.TestValues.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two API servers, each with its own etcd client, on one real etcd create Services at the same
 * time: every cluster IP and node port is handed out once, because a cluster IP is claimed by
 * creating its IPAddress and a node port by a compare-and-swap of the stored bitmap (kube 1.33+),
 * never by a lock in one server.
 */
class SharedEtcdServiceAllocationTest {
  private static final GroupVersionResource SERVICES =
      new GroupVersionResource("", "v1", "services");
  private static final GroupVersionResource IP_ADDRESSES =
      new GroupVersionResource("networking.k8s.io", "v1", "ipaddresses");
  private static EtcdServer etcd;

  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  private ApiServer server(String prefix) {
    EtcdStore store = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix).build();
    ApiServer server = ApiServer.builder().store(store).build();
    closeables.add(server);
    closeables.add(store);
    return server;
  }

  @Test
  void twoHundredConcurrentCreatesOnTwoServersGetDistinctAddressesAndPorts() throws Exception {
    List<ApiServer> servers = List.of(server("/it/svc-alloc"), server("/it/svc-alloc"));
    int n = 200;
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<ApiResponse>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ApiServer s = servers.get(i % 2);
        MapValue svc = yaml("apiVersion: v1\nkind: Service\nmetadata: {name: s" + i + "}\n"
            + "spec: {type: NodePort, ports: [{port: 80}]}");
        futures.add(pool.submit(() -> {
          go.await();
          return s.handle(req(Verb.CREATE, SERVICES, "default", "").body(svc)
              .fieldManager("test").build());
        }));
      }
      go.countDown();
      Set<String> ips = new HashSet<>();
      Set<Long> ports = new HashSet<>();
      for (Future<ApiResponse> f : futures) {
        ApiResponse r = f.get();
        assertThat(r.code()).as(r::toString).isEqualTo(201);
        ips.add(str(r.body(), "spec", "clusterIP"));
        MapValue port = (MapValue) ((ListValue) at(r.body(), "spec", "ports")).get(0);
        ports.add(((IntegerValue) port.getOrNull("nodePort")).value());
      }
      assertThat(ips).hasSize(n);
      assertThat(ports).hasSize(n);

      // each server lists the same IPAddresses: the 200 and the kubernetes Service's 10.0.0.1
      for (ApiServer s : servers) {
        Set<String> listed = new HashSet<>();
        ListValue items = (ListValue) at(s.handle(req(Verb.LIST, IP_ADDRESSES, "", "").build())
            .body(), "items");
        for (Value item : items.items()) {
          listed.add(str(item, "metadata", "name"));
        }
        Set<String> expected = new HashSet<>(ips);
        expected.add("10.0.0.1");
        assertThat(listed).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
