/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.ServiceUnavailableException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * etcd crashing and coming back under a running store: calls fail fast with a Status, the same
 * store recovers, and no acknowledged write is lost or duplicated.
 *
 * <p>A write that failed with 503/500 is ambiguous: etcd may have applied it before the
 * connection broke (kube-apiserver has the same property). So the checks are: every
 * acknowledged write is stored exactly once; every stored write was either acknowledged or
 * failed ambiguously; nothing else is there.
 */
class EtcdStoreFaultTest {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** How often a watch resumed while the client reconnects may end with a 503 first. */
  private static final int RESUME_ATTEMPTS = 50;
  private static EtcdServer etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  private static EtcdStore store(String prefix) {
    return EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix)
        .requestTimeout(REQUEST_TIMEOUT).build();
  }

  /** What one writer saw. */
  private static final class Log {
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final Set<String> ambiguous = ConcurrentHashMap.newKeySet();
    final List<String> badFailures = java.util.Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger acknowledgedAfterRestart = new AtomicInteger();

    /**
     * Records a failed call; only 503/500 Statuses are acceptable (a call that hung instead
     * would stall its writer, and the bounded waits for progress would fail).
     */
    void failed(String id, RuntimeException e) {
      failures.incrementAndGet();
      ambiguous.add(id);
      if (!(e instanceof StatusException s) || (s.code() != 503 && s.code() != 500)) {
        badFailures.add(id + ": not a 503/500 Status: " + e);
      }
    }
  }

  @Test
  void acknowledgedWritesSurviveACrashAndRestartAndNoneIsDuplicated() throws Exception {
    EtcdStore store = store("/fault/writes");
    ObjectKey counter = ObjectKey.namespaced("", "configmaps", "default", "counter");
    store.create(counter, MapValue.ofEntries("count", IntegerValue.of(0),
        "ops", ListValue.empty()));
    Log creates = new Log();
    Log increments = new Log();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean restarted = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> creator = pool.submit(() -> {
        for (int i = 0; !stop.get(); i++) {
          // every attempt writes a new key: a retry under the same key could not tell an
          // ambiguous success from a conflict
          String name = "w" + i;
          try {
            store.create(ObjectKey.namespaced("", "configmaps", "default", name),
                MapValue.ofEntries("seq", IntegerValue.of(i)));
            creates.acknowledged.add(name);
            if (restarted.get()) {
              creates.acknowledgedAfterRestart.incrementAndGet();
            }
          } catch (RuntimeException e) {
            creates.failed(name, e);
            pause();
          }
        }
        return null;
      });
      Future<?> incrementer = pool.submit(() -> {
        for (int op = 0; !stop.get(); op++) {
          String id = "op" + op;
          try {
            StoredObject current = store.get(counter).orElseThrow();
            MapValue o = current.object();
            long count = ((IntegerValue) o.getOrNull("count")).value();
            ListValue ops = (ListValue) o.getOrNull("ops");
            List<Value> withOp = new ArrayList<>(ops.items());
            withOp.add(Value.of(id));
            store.update(counter, o.with("count", IntegerValue.of(count + 1))
                .with("ops", ListValue.of(withOp)), current.resourceVersion());
            increments.acknowledged.add(id);
            if (restarted.get()) {
              increments.acknowledgedAfterRestart.incrementAndGet();
            }
          } catch (ConflictException e) {
            increments.badFailures.add(id + ": conflict without a competing writer");
          } catch (RuntimeException e) {
            increments.failed(id, e);
            pause();
          }
        }
        return null;
      });

      await("writes before the crash", () -> creates.acknowledged.size() >= 30
          && increments.acknowledged.size() >= 15);
      etcd.kill();
      await("failures during the outage", () -> creates.failures.get() >= 3
          && increments.failures.get() >= 3);
      etcd.restart();
      restarted.set(true);
      await("writes after the restart", () -> creates.acknowledgedAfterRestart.get() >= 30
          && increments.acknowledgedAfterRestart.get() >= 15);
      stop.set(true);
      creator.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      incrementer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }

    assertThat(creates.badFailures).isEmpty();
    assertThat(increments.badFailures).isEmpty();

    // creates: every acknowledged key is there; anything else there failed ambiguously
    List<StoredObject> stored = store.list(CollectionKey.inNamespace("", "configmaps", "default"),
        ListOptions.all()).items();
    Set<String> storedNames = stored.stream().map(o -> o.key().name())
        .filter(n -> !n.equals("counter")).collect(Collectors.toSet());
    assertThat(storedNames).containsAll(creates.acknowledged);
    Set<String> unacknowledged = new HashSet<>(storedNames);
    unacknowledged.removeAll(creates.acknowledged);
    assertThat(creates.ambiguous).containsAll(unacknowledged);
    for (StoredObject o : stored) {
      if (!o.key().name().equals("counter")) {
        assertThat("w" + ((IntegerValue) o.object().getOrNull("seq")).value())
            .isEqualTo(o.key().name());
      }
    }

    // compare-and-swap increments: each acknowledged one applied exactly once, nothing extra
    MapValue last = store.get(counter).orElseThrow().object();
    List<String> ops = ((ListValue) last.getOrNull("ops")).items().stream()
        .map(v -> ((StringValue) v).value()).collect(Collectors.toList());
    assertThat(ops).doesNotHaveDuplicates().containsAll(increments.acknowledged);
    Set<String> extra = new HashSet<>(ops);
    extra.removeAll(increments.acknowledged);
    assertThat(increments.ambiguous).containsAll(extra);
    assertThat(last.getOrNull("count")).isEqualTo(IntegerValue.of(ops.size()));
    store.close();
  }

  @Test
  void aWatchBrokenByAnOutageEndsWithAnErrorAndResumesFromItsLastRevision() throws Exception {
    EtcdStore store = store("/fault/watch");
    CollectionKey all = CollectionKey.all("", "configmaps");
    ObjectKey a = ObjectKey.namespaced("", "configmaps", "default", "a");
    ObjectKey b = ObjectKey.namespaced("", "configmaps", "default", "b");
    Watch w = store.watch(all, WatchOptions.builder().initialEvents(InitialEvents.SKIP).build());
    StoredObject created = store.create(a, MapValue.ofEntries("v", Value.of(1)));
    WatchEvent first = w.poll(WAIT).orElseThrow();
    long lastSeen = ((WatchEvent.ObjectChange) first).resourceVersion();
    assertThat(lastSeen).isEqualTo(created.resourceVersion());

    etcd.stop();
    WatchEvent failure = w.poll(WAIT).orElseThrow();
    assertThat(failure).isInstanceOfSatisfying(WatchEvent.Failure.class, f -> {
      assertThat(f.status().code()).isEqualTo(503);
      assertThat(f.status().reason()).isEqualTo(StatusReason.SERVICE_UNAVAILABLE);
    });
    assertThat(w.poll(Duration.ZERO)).isEmpty();
    assertThat(w.isClosed()).isTrue();
    // watching again while etcd is down fails (with the 503 kube answers), not waits
    assertThatThrownBy(() -> store.watch(all, WatchOptions.builder().resourceVersion(lastSeen)
        .build())).isInstanceOf(ServiceUnavailableException.class);

    etcd.restart();
    StoredObject missed = retry(() -> store.create(b, MapValue.ofEntries("v", Value.of(2))));
    StoredObject changed = retry(() -> store.update(a, created.object().with("v", Value.of(3)),
        created.resourceVersion()));
    // a watch opened while the client is still reconnecting may itself end with a 503 before
    // its first event; the consumer then watches again from the same revision, as a reflector does
    WatchEvent firstResumed = null;
    Watch resumed = null;
    for (int attempt = 1; firstResumed == null; attempt++) {
      resumed = retry(() -> store.watch(all,
          WatchOptions.builder().resourceVersion(lastSeen).build()));
      WatchEvent e = resumed.poll(WAIT).orElseThrow();
      if (e instanceof WatchEvent.Failure f && f.status().code() == 503
          && attempt < RESUME_ATTEMPTS) {
        resumed.close();
        pause();
      } else {
        firstResumed = e;
      }
    }
    try (Watch w2 = resumed) {
      WatchEvent.ObjectChange e1 = (WatchEvent.ObjectChange) firstResumed;
      WatchEvent.ObjectChange e2 = (WatchEvent.ObjectChange) w2.poll(WAIT).orElseThrow();
      assertThat(e1.type()).isEqualTo(WatchEvent.Type.ADDED);
      assertThat(e1.object()).isEqualTo(missed);
      assertThat(e2.type()).isEqualTo(WatchEvent.Type.MODIFIED);
      assertThat(e2.object()).isEqualTo(changed);
      // nothing else was replayed: the next event is a later write's (etcd orders events)
      StoredObject marker = store.create(ObjectKey.namespaced("", "configmaps", "default", "c"),
          MapValue.ofEntries("v", Value.of(4)));
      WatchEvent.ObjectChange e3 = (WatchEvent.ObjectChange) w2.poll(WAIT).orElseThrow();
      assertThat(e3.object()).isEqualTo(marker);
    }
    store.close();
  }

  @Test
  void aStoreBuiltWhileEtcdIsDownWorksOnceItIsUp() throws Exception {
    etcd.stop();
    EtcdStore store = store("/fault/late");
    try {
      EtcdStoreTest.assertFailsFastWith503(store);
      etcd.restart();
      ObjectKey key = ObjectKey.namespaced("", "configmaps", "default", "late");
      StoredObject created = retry(() -> store.create(key, MapValue.ofEntries("v", Value.of(1))));
      assertThat(store.get(key)).contains(created);
    } finally {
      if (!etcd.isRunning()) {
        etcd.restart();
      }
      store.close();
    }
  }

  /** Retries a call that may still meet the reconnecting client, for a bounded time. */
  private static <T> T retry(java.util.function.Supplier<T> call) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        return call.get();
      } catch (ServiceUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /** A client backing off after a failure, instead of spinning on a dead server. */
  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
