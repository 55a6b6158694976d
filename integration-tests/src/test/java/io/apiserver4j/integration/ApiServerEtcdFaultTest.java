/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static io.apiserver4j.integration.TestValues.CONFIGMAPS;
import static io.apiserver4j.integration.TestValues.at;
import static io.apiserver4j.integration.TestValues.await;
import static io.apiserver4j.integration.TestValues.req;
import static io.apiserver4j.integration.TestValues.str;
import static io.apiserver4j.integration.TestValues.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * etcd going away under two running API servers: requests fail fast with a 503/500
 * {@code Status} (never a hang, never a Java exception), nothing half-written is left behind,
 * and the very same {@link ApiServer} instances work again once etcd is back.
 *
 * <p>A write that fails this way is ambiguous (etcd may have applied it just before the
 * connection broke, as with kube-apiserver), so the writer-loop test checks: every acknowledged
 * write is stored exactly once, and whatever else is stored failed ambiguously.
 */
class ApiServerEtcdFaultTest {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
  /** How long recovery may take: gRPC reconnects with a backoff once etcd is back. */
  private static final Duration RECOVERY = Duration.ofSeconds(30);
  private static EtcdServer etcd;

  private ApiServer a;
  private ApiServer b;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void twoServers(TestInfo info) {
    if (!etcd.isRunning()) {
      etcd.restart();
    }
    String prefix = "/fault/" + info.getTestMethod().orElseThrow().getName();
    a = server(prefix);
    b = server(prefix);
  }

  @AfterEach
  void closeServers() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  private ApiServer server(String prefix) {
    EtcdStore store = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix)
        .requestTimeout(REQUEST_TIMEOUT).build();
    // lists the ConfigMaps of default: no root-ca-cert-publisher (ServiceAccount) here
    ApiServer server = ApiServer.builder().store(store).disableAdmissionPlugins("ServiceAccount")
        .build();
    closeables.add(server);
    closeables.add(store);
    return server;
  }

  private static MapValue configMap(String name) {
    return yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: %s}
        data: {k: v}
        """.formatted(name));
  }

  private static ApiResponse create(ApiServer server, String name) {
    return server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "").body(configMap(name))
        .build());
  }

  /**
   * Runs {@code call} while etcd is down, checking that it failed with a 503 or 500 Status: that
   * it returns at all, with etcd still down, shows it did not wait for etcd (the store's
   * request timeout ended it), so no clock is read.
   */
  private static ApiResponse failsFast(Supplier<ApiResponse> call) {
    ApiResponse r = call.get();

    assertThat(r.code()).as(r.body().toString()).isIn(503, 500);
    assertThat(str(r.body(), "kind")).isEqualTo("Status");
    assertThat(str(r.body(), "status")).isEqualTo("Failure");
    assertThat(at(r.body(), "code")).isEqualTo(Value.of((long) r.code()));
    assertThat(str(r.body(), "reason")).isIn("ServiceUnavailable", "InternalError");
    assertThat(str(r.body(), "message")).isNotEmpty();
    return r;
  }

  @Test
  void requestsWhileEtcdIsDownFailFastWithAStatusAndTheSameServersRecover() throws Exception {
    MapValue before = create(a, "before").orThrow();
    String rv = str(b.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()).orThrow(),
        "metadata", "resourceVersion");
    ApiWatch watch = b.watch(req(Verb.WATCH, CONFIGMAPS, "default", "").resourceVersion(rv)
        .build());

    etcd.stop();

    failsFast(() -> create(a, "during"));
    failsFast(() -> a.handle(req(Verb.PATCH, CONFIGMAPS, "default", "applied").fieldManager("m")
        .patch(PatchType.APPLY_YAML, """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: applied}
            """).build()));
    failsFast(() -> b.handle(req(Verb.GET, CONFIGMAPS, "default", "before").build()));
    failsFast(() -> b.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()));
    failsFast(() -> b.handle(req(Verb.UPDATE, CONFIGMAPS, "default", "before")
        .body(before.with("data", MapValue.ofEntries("k", Value.of("changed")))).build()));
    // B's watch stream broke: it ends with an ERROR event instead of going silent
    Optional<ApiWatchEvent> error = watch.poll(RECOVERY);
    assertThat(error).isPresent();
    assertThat(error.get().type()).isEqualTo("ERROR");
    assertThat(str(error.get().object(), "kind")).isEqualTo("Status");
    watch.close();

    etcd.restart();

    // the same server instances, not rebuilt, work again once their clients have reconnected
    await("A to accept a create again", RECOVERY, () -> create(a, "after").code() == 201);
    await("B to answer again", RECOVERY,
        () -> b.handle(req(Verb.GET, CONFIGMAPS, "default", "after").build()).code() == 200);
    // the failed writes left nothing behind (etcd was down: none of them can have been applied)
    assertThat(b.handle(req(Verb.GET, CONFIGMAPS, "default", "during").build()).code())
        .isEqualTo(404);
    assertThat(b.handle(req(Verb.GET, CONFIGMAPS, "default", "applied").build()).code())
        .isEqualTo(404);
    assertThat(a.handle(req(Verb.GET, CONFIGMAPS, "default", "before").build()).orThrow())
        .isEqualTo(before);
    // and a watch resumed from the last revision B saw sees what A wrote after the outage; while
    // B's etcd watch client reconnects a new watch may still end at once with an ERROR event,
    // and a client re-watches from the same revision, as client-go's reflector does
    java.util.concurrent.atomic.AtomicReference<ApiWatchEvent> first =
        new java.util.concurrent.atomic.AtomicReference<>();
    await("a resumed watch to deliver an event", RECOVERY, () -> {
      try (ApiWatch resumed = b.watch(req(Verb.WATCH, CONFIGMAPS, "default", "")
          .resourceVersion(rv).build())) {
        Optional<ApiWatchEvent> e = resumed.poll(RECOVERY);
        if (e.isPresent() && !e.get().type().equals("ERROR")) {
          first.set(e.get());
          return true;
        }
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      }
    });
    assertThat(first.get().type()).isEqualTo("ADDED");
    assertThat(str(first.get().object(), "metadata", "name")).isEqualTo("after");
  }

  /** What one writer saw. */
  private static final class Log {
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final Set<String> ambiguous = ConcurrentHashMap.newKeySet();
    final List<String> badFailures = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger acknowledgedAfterRestart = new AtomicInteger();

    void acknowledged(String id, AtomicBoolean restarted) {
      acknowledged.add(id);
      if (restarted.get()) {
        acknowledgedAfterRestart.incrementAndGet();
      }
    }

    /**
     * Records a failed request; only a 503/500 Status is acceptable (a request that hung
     * instead would stall its writer, and the bounded waits for progress would fail).
     */
    void failed(String id, ApiResponse r) {
      failures.incrementAndGet();
      ambiguous.add(id);
      if (r.code() != 503 && r.code() != 500) {
        badFailures.add(id + ": not a 503/500 Status: " + r);
      }
    }
  }

  @Test
  void acknowledgedWritesThroughBothServersSurviveACrashAndNoneIsDuplicated() throws Exception {
    a.handle(req(Verb.CREATE, CONFIGMAPS, "default", "").body(yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: counter}
        data: {count: "0"}
        """)).build()).orThrow();
    Log creates = new Log();
    Log increments = new Log();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean restarted = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      // creates through A: every attempt uses a new name, so an ambiguous success cannot be
      // mistaken for a conflict
      Future<?> creator = pool.submit(() -> {
        for (int i = 0; !stop.get(); i++) {
          String name = "w" + i;
          ApiResponse r = create(a, name);
          if (r.code() == 201) {
            creates.acknowledged(name, restarted);
          } else {
            creates.failed(name, r);
            backOff();
          }
        }
        return null;
      });
      // read-modify-write through B: each operation adds its id to data and bumps the count
      Future<?> incrementer = pool.submit(() -> {
        for (int op = 0; !stop.get(); op++) {
          String id = "op" + op;
          ApiResponse got = b.handle(req(Verb.GET, CONFIGMAPS, "default", "counter").build());
          ApiResponse r = got;
          if (got.code() == 200) {
            MapValue data = (MapValue) got.body().getOrNull("data");
            long count = Long.parseLong(((StringValue) data.getOrNull("count")).value());
            r = b.handle(req(Verb.UPDATE, CONFIGMAPS, "default", "counter")
                .body(got.body().with("data", data.with(id, Value.of("1"))
                    .with("count", Value.of(Long.toString(count + 1))))).build());
          }
          if (r.code() == 200 && got != r) {
            increments.acknowledged(id, restarted);
          } else if (r.code() == 409) {
            increments.badFailures.add(id + ": conflict without a competing writer: " + r);
          } else {
            increments.failed(id, r);
            backOff();
          }
        }
        return null;
      });

      await("writes before the crash", RECOVERY, () -> creates.acknowledged.size() >= 20
          && increments.acknowledged.size() >= 10);
      etcd.kill();
      await("failures during the outage", RECOVERY, () -> creates.failures.get() >= 3
          && increments.failures.get() >= 3);
      etcd.restart();
      restarted.set(true);
      await("writes after the restart", RECOVERY,
          () -> creates.acknowledgedAfterRestart.get() >= 20
              && increments.acknowledgedAfterRestart.get() >= 10);
      stop.set(true);
      creator.get(RECOVERY.toMillis(), TimeUnit.MILLISECONDS);
      incrementer.get(RECOVERY.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }

    assertThat(creates.badFailures).isEmpty();
    assertThat(increments.badFailures).isEmpty();

    // creates: every acknowledged one is there (seen through the other server); anything else
    // there failed ambiguously
    MapValue list = b.handle(req(Verb.LIST, CONFIGMAPS, "default", "").build()).orThrow();
    Set<String> stored = ((ListValue) list.getOrNull("items")).items().stream()
        .map(o -> str(o, "metadata", "name")).filter(n -> !n.equals("counter"))
        .collect(Collectors.toSet());
    assertThat(stored).containsAll(creates.acknowledged);
    Set<String> unacknowledged = new HashSet<>(stored);
    unacknowledged.removeAll(creates.acknowledged);
    assertThat(creates.ambiguous).containsAll(unacknowledged);

    // increments: each acknowledged one applied exactly once, nothing unexplained
    MapValue counter = a.handle(req(Verb.GET, CONFIGMAPS, "default", "counter").build())
        .orThrow();
    MapValue data = (MapValue) counter.getOrNull("data");
    Set<String> ops = data.asMap().keySet().stream().filter(k -> k.startsWith("op"))
        .collect(Collectors.toSet());
    assertThat(ops).containsAll(increments.acknowledged);
    Set<String> extra = new HashSet<>(ops);
    extra.removeAll(increments.acknowledged);
    assertThat(increments.ambiguous).containsAll(extra);
    // the count moved once per stored operation: no increment was applied twice
    assertThat(str(counter, "data", "count")).isEqualTo(Integer.toString(ops.size()));
  }

  /** Backs off after a failure so the writers do not spin while etcd is down. */
  private static void backOff() throws InterruptedException {
    Thread.sleep(20);
  }
}
