/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two stores with their own etcd clients on one etcd and key prefix, as two API servers would
 * be: each sees the other's writes, loses compare-and-swap races to it and watches its changes.
 */
class EtcdStoreMultiInstanceTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static EtcdServer etcd;
  private EtcdStore a;
  private EtcdStore b;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void twoStores() {
    String prefix = "/multi/p" + PREFIXES.incrementAndGet();
    a = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix).build();
    b = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix).build();
  }

  @AfterEach
  void closeStores() {
    a.close();
    b.close();
  }

  private static ObjectKey key(String name) {
    return ObjectKey.namespaced("", "configmaps", "default", name);
  }

  private static MapValue object(String name, int n) {
    return MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of(name),
        "uid", Value.of("uid-" + name)), "n", IntegerValue.of(n));
  }

  @Test
  void writesOfOneAreReadByTheOther() {
    StoredObject created = a.create(key("x"), object("x", 1));
    assertThat(b.get(key("x"))).contains(created);
    assertThatThrownBy(() -> b.create(key("x"), object("x", 2)))
        .isInstanceOf(AlreadyExistsException.class);
    StoredObject updated = b.update(key("x"), object("x", 2), created.resourceVersion());
    assertThat(a.get(key("x"))).contains(updated);
    assertThat(a.currentRevision()).isEqualTo(b.currentRevision())
        .isEqualTo(updated.resourceVersion());
    b.delete(key("x"), Preconditions.ofUid("uid-x"));
    assertThat(a.get(key("x"))).isEmpty();
  }

  @Test
  void aStaleWriteLosesToTheOtherStore() {
    StoredObject created = a.create(key("x"), object("x", 1));
    StoredObject byB = b.update(key("x"), object("x", 2), created.resourceVersion());
    assertThatThrownBy(() -> a.update(key("x"), object("x", 3), created.resourceVersion()))
        .isInstanceOf(ConflictException.class);
    assertThatThrownBy(() -> a.delete(key("x"),
        Preconditions.ofResourceVersion(created.resourceVersionString())))
        .isInstanceOf(ConflictException.class);
    assertThat(a.get(key("x"))).contains(byB);
    // a read-modify-write on A starts from B's state
    StoredObject byA = a.guaranteedUpdate(key("x"), Preconditions.none(),
        o -> o.with("n", IntegerValue.of(((IntegerValue) o.getOrNull("n")).value() * 10)));
    assertThat(byA.object().getOrNull("n")).isEqualTo(IntegerValue.of(20));
  }

  @Test
  void concurrentIncrementsThroughBothStoresLoseNothing() throws Exception {
    a.create(key("counter"), object("counter", 0));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        EtcdStore s = t % 2 == 0 ? a : b;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 25; i++) {
            s.guaranteedUpdate(key("counter"), Preconditions.none(), o -> o.with("n",
                IntegerValue.of(((IntegerValue) o.getOrNull("n")).value() + 1)));
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(b.get(key("counter")).orElseThrow().object().getOrNull("n"))
        .isEqualTo(IntegerValue.of(100));
  }

  @Test
  void eachWatchesTheOthersChanges() throws Exception {
    CollectionKey all = CollectionKey.all("", "configmaps");
    WatchOptions fromNow = WatchOptions.builder().initialEvents(InitialEvents.SKIP).build();
    try (Watch onA = a.watch(all, fromNow); Watch onB = b.watch(all, fromNow)) {
      StoredObject x = b.create(key("x"), object("x", 1));
      StoredObject y = a.create(key("y"), object("y", 1));
      StoredObject x2 = a.update(key("x"), object("x", 2), x.resourceVersion());
      StoredObject gone = b.delete(key("y"), Preconditions.none());
      for (Watch w : List.of(onA, onB)) {
        assertEvent(w, WatchEvent.Type.ADDED, x);
        assertEvent(w, WatchEvent.Type.ADDED, y);
        assertEvent(w, WatchEvent.Type.MODIFIED, x2);
        assertEvent(w, WatchEvent.Type.DELETED, gone);
        assertThat(w.poll(Duration.ofMillis(200))).isEmpty();
      }
    }
  }

  private static void assertEvent(Watch w, WatchEvent.Type type, StoredObject object)
      throws InterruptedException {
    WatchEvent e = w.poll(WAIT).orElseThrow();
    assertThat(e).isInstanceOfSatisfying(WatchEvent.ObjectChange.class, c -> {
      assertThat(c.type()).isEqualTo(type);
      assertThat(c.object()).isEqualTo(object);
    });
  }

  @Test
  void aListStartedOnOneContinuesOnTheOther() {
    for (int i = 0; i < 5; i++) {
      a.create(key("o" + i), object("o" + i, i));
    }
    CollectionKey all = CollectionKey.all("", "configmaps");
    ListResult first = a.list(all, ListOptions.builder().limit(2).build());
    b.delete(key("o3"), Preconditions.none());
    ListResult rest = b.list(all, ListOptions.builder().limit(10)
        .continueToken(first.continueToken().orElseThrow()).build());
    assertThat(rest.resourceVersion()).isEqualTo(first.resourceVersion());
    assertThat(rest.items()).extracting(o -> o.key().name()).containsExactly("o2", "o3", "o4");
  }
}
