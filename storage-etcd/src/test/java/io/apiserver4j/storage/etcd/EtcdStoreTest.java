/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ContinueToken;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ManualClock;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.EtcdExceptionFactory;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What is specific to etcd: key layout, raw values, compaction, progress, the builder. */
class EtcdStoreTest {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static EtcdServer etcd;
  private static Client raw;
  private final List<EtcdStore> stores = new ArrayList<>();

  @BeforeAll
  static void startEtcd() {
    // frequent progress notifications let idle watches report progress within the test
    etcd = EtcdServer.builder().progressNotifyInterval(Duration.ofMillis(100)).start();
    raw = Client.builder().endpoints(etcd.clientUri()).build();
  }

  @AfterAll
  static void stopEtcd() {
    raw.close();
    etcd.close();
  }

  @AfterEach
  void closeStores() {
    stores.forEach(EtcdStore::close);
  }

  private EtcdStore store(EtcdStore.Builder b) {
    EtcdStore s = b.build();
    stores.add(s);
    return s;
  }

  private static String freshPrefix() {
    return "/unit/p" + PREFIXES.incrementAndGet();
  }

  private EtcdStore store() {
    return store(EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(freshPrefix()));
  }

  private static MapValue object(String namespace, String name) {
    MapValue.Builder meta = MapValue.builder().put("name", Value.of(name));
    if (!namespace.isEmpty()) {
      meta.put("namespace", Value.of(namespace));
    }
    return MapValue.builder().put("kind", Value.of("Thing")).put("metadata", meta.build())
        .put("data", MapValue.ofEntries("k", Value.of("v"))).build();
  }

  private static ObjectKey cm(String namespace, String name) {
    return ObjectKey.namespaced("", "configmaps", namespace, name);
  }

  private static List<KeyValue> rawRange(String prefix) throws Exception {
    return raw.getKVClient().get(EtcdKeys.bytes(prefix),
        GetOption.builder().isPrefix(true).build()).get(5, TimeUnit.SECONDS).getKvs();
  }

  private static String str(ByteSequence b) {
    return b.toString(StandardCharsets.UTF_8);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  // ------------------------------------------------------------------ layout

  @Test
  void keysFollowTheDocumentedLayoutAndValuesAreJsonWithoutResourceVersion() throws Exception {
    EtcdStore store = store();
    String p = store.keyPrefix();
    StoredObject a = store.create(cm("default", "a"), object("default", "a"));
    store.create(ObjectKey.namespaced("apps", "deployments", "default", "d"),
        object("default", "d"));
    store.create(ObjectKey.clusterScoped("", "nodes", "n1"), object("", "n1"));
    List<KeyValue> kvs = rawRange(p + "/");
    assertThat(kvs).extracting(kv -> str(kv.getKey())).containsExactly(
        p + "//configmaps/default/a", p + "//nodes/n1", p + "/apps/deployments/default/d");
    KeyValue stored = kvs.get(0);
    assertThat(stored.getModRevision()).isEqualTo(a.resourceVersion());
    assertThat(str(stored.getValue())).isEqualTo(Json.write(object("default", "a")))
        .doesNotContain("resourceVersion");
  }

  @Test
  void collectionPrefixesNeverReachIntoNeighbours() {
    EtcdStore t1 = store(EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix("/iso/t1"));
    EtcdStore t10 = store(EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix("/iso/t10"));
    t1.create(cm("ns", "a"), object("ns", "a"));
    t10.create(cm("ns", "b"), object("ns", "b"));
    t1.create(cm("ns-2", "c"), object("ns-2", "c"));
    t1.create(ObjectKey.namespaced("x.io", "configmaps", "ns", "d"), object("ns", "d"));
    t1.create(ObjectKey.namespaced("", "configmapsx", "ns", "e"), object("ns", "e"));
    t1.create(ObjectKey.clusterScoped("", "widgets", "ns"), object("", "ns"));
    t1.create(ObjectKey.clusterScoped("", "widgets", "ns2"), object("", "ns2"));
    assertThat(names(t1.list(CollectionKey.inNamespace("", "configmaps", "ns"), ListOptions.all())))
        .containsExactly("ns/a");
    assertThat(names(t1.list(CollectionKey.all("", "configmaps"), ListOptions.all())))
        .containsExactly("ns-2/c", "ns/a");
    assertThat(names(t10.list(CollectionKey.all("", "configmaps"), ListOptions.all())))
        .containsExactly("ns/b");
    assertThat(names(t1.list(CollectionKey.all("x.io", "configmaps"), ListOptions.all())))
        .containsExactly("ns/d");
    assertThat(names(t1.list(CollectionKey.all("", "widgets"), ListOptions.all())))
        .containsExactly("ns", "ns2");
    // a namespace collection never matches a cluster-scoped object of the same name
    assertThat(t1.list(CollectionKey.inNamespace("", "widgets", "ns"), ListOptions.all()).items())
        .isEmpty();
    assertThat(t1.get(cm("ns", "b"))).isEmpty();
  }

  private static List<String> names(ListResult r) {
    return r.items().stream().map(o -> o.key().relativeKey()).collect(Collectors.toList());
  }

  @Test
  void aCorruptValueIsAnInternalError() throws Exception {
    EtcdStore store = store();
    raw.getKVClient().put(EtcdKeys.bytes(store.keyPrefix() + "//configmaps/default/bad"),
        EtcdKeys.bytes("{not json")).get(5, TimeUnit.SECONDS);
    raw.getKVClient().put(EtcdKeys.bytes(store.keyPrefix() + "//configmaps/default/list"),
        EtcdKeys.bytes("[1]")).get(5, TimeUnit.SECONDS);
    assertThatThrownBy(() -> store.get(cm("default", "bad")))
        .isInstanceOfSatisfying(InternalErrorException.class, e -> {
          assertThat(e.code()).isEqualTo(500);
          assertThat(e.getMessage()).startsWith("Internal error occurred: cannot decode the stored"
              + " object configmaps \"default/bad\": ");
        });
    assertThatThrownBy(() -> store.get(cm("default", "list")))
        .isInstanceOf(InternalErrorException.class).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> store.list(CollectionKey.all("", "configmaps"), ListOptions.all()))
        .isInstanceOf(InternalErrorException.class);
  }

  @Test
  void aForeignKeyBelowTheResourceIsAnInternalError() throws Exception {
    EtcdStore store = store();
    store.create(cm("default", "a"), object("default", "a"));
    raw.getKVClient().put(EtcdKeys.bytes(store.keyPrefix() + "//configmaps/default/a/extra"),
        EtcdKeys.bytes("{}")).get(5, TimeUnit.SECONDS);
    assertThatThrownBy(() -> store.list(CollectionKey.all("", "configmaps"), ListOptions.all()))
        .isInstanceOfSatisfying(InternalErrorException.class, e -> assertThat(e.getMessage())
            .isEqualTo("Internal error occurred: etcd holds a key outside the object layout: "
                + store.keyPrefix() + "//configmaps/default/a/extra"));
    assertThat(store.get(cm("default", "a"))).isPresent();
  }

  // ------------------------------------------------------------------ lists

  @Test
  void aContinueTokenAtTheLatestRevisionContinuesWithTheCurrentState() {
    EtcdStore store = store();
    store.create(cm("default", "o1"), object("default", "o1"));
    store.create(cm("default", "o2"), object("default", "o2"));
    StoredObject o3 = store.create(cm("default", "o3"), object("default", "o3"));
    CollectionKey c = CollectionKey.inNamespace("", "configmaps", "default");
    String latest = new ContinueToken(-1, "o1\0").encode();
    ListResult rest = store.list(c, ListOptions.builder().limit(1).continueToken(latest).build());
    assertThat(names(rest)).containsExactly("default/o2");
    assertThat(rest.resourceVersion()).isEqualTo(o3.resourceVersion());
    assertThat(rest.remainingItemCount()).contains(1L);
    // the next token pins the revision the continuation was read at
    assertThat(ContinueToken.decode(rest.continueToken().orElseThrow()).resourceVersion())
        .isEqualTo(o3.resourceVersion());
  }

  @Test
  void aFilteredPageReadsBeyondOneBatch() {
    EtcdStore store = store();
    for (int i = 0; i < 40; i++) {
      MapValue o = object("default", "o" + (100 + i));
      if (i % 13 == 0) {
        o = o.with("metadata", ((MapValue) o.getOrNull("metadata"))
            .with("labels", MapValue.ofEntries("pick", Value.of("yes"))));
      }
      store.create(cm("default", "o" + (100 + i)), o);
    }
    ListOptions first = ListOptions.builder().limit(2)
        .labelSelector(io.apiserver4j.core.labels.LabelSelector.parse("pick=yes")).build();
    CollectionKey c = CollectionKey.all("", "configmaps");
    ListResult p1 = store.list(c, first);
    assertThat(names(p1)).containsExactly("default/o100", "default/o113");
    ListResult p2 = store.list(c, first.toBuilder().continueToken(p1.continueToken().get()).build());
    assertThat(names(p2)).containsExactly("default/o126", "default/o139");
    assertThat(p2.continueToken()).isEmpty();
  }

  // ------------------------------------------------------------------ watch

  @Test
  void aWatchOfOneObjectIgnoresKeysSharingItsNameAsPrefix() throws Exception {
    EtcdStore store = store();
    try (Watch w = store.watch(cm("default", "x"),
        WatchOptions.builder().initialEvents(InitialEvents.SKIP).build())) {
      store.create(cm("default", "xy"), object("default", "xy"));
      store.create(cm("default2", "x"), object("default2", "x"));
      StoredObject x = store.create(cm("default", "x"), object("default", "x"));
      WatchEvent e = w.poll(WAIT).orElseThrow();
      assertThat(((WatchEvent.ObjectChange) e).object()).isEqualTo(x);
      // the next event is x's own next change: nothing of xy or default2/x came in between
      // (etcd delivers events in revision order)
      store.create(cm("default", "xz"), object("default", "xz"));
      store.delete(cm("default", "x"), io.apiserver4j.storage.Preconditions.none());
      WatchEvent next = w.poll(WAIT).orElseThrow();
      assertThat(((WatchEvent.ObjectChange) next).type()).isEqualTo(WatchEvent.Type.DELETED);
      assertThat(((WatchEvent.ObjectChange) next).object().key()).isEqualTo(x.key());
    }
  }

  @Test
  void bookmarksAdvanceWithEtcdProgressNotificationsOnAnIdleCollection() throws Exception {
    ManualClock clock = new ManualClock();
    EtcdStore store = store(EtcdStore.builder().endpoints(etcd.clientUri())
        .keyPrefix(freshPrefix()).clock(clock));
    WatchOptions options = WatchOptions.builder().initialEvents(InitialEvents.SKIP)
        .allowBookmarks(true).bookmarkInterval(Duration.ofSeconds(1)).build();
    try (Watch w = store.watch(CollectionKey.all("", "configmaps"), options)) {
      long elsewhere = store.create(ObjectKey.namespaced("", "secrets", "default", "s"),
          object("default", "s")).resourceVersion();
      long seen = 0;
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (seen < elsewhere) {
        assertThat(System.nanoTime()).as("a bookmark at %s", elsewhere).isLessThan(deadline);
        clock.advance(Duration.ofSeconds(1));
        Optional<WatchEvent> e = w.poll(Duration.ofMillis(50));
        if (e.isPresent()) {
          assertThat(e.get()).isInstanceOf(WatchEvent.Bookmark.class);
          long rv = ((WatchEvent.Bookmark) e.get()).resourceVersion();
          assertThat(rv).isGreaterThanOrEqualTo(seen);
          seen = rv;
        }
      }
    }
  }

  @Test
  void aSlowConsumerGetsTheBufferedChangesThenTheWatchEnds() throws Exception {
    EtcdStore store = store(EtcdStore.builder().endpoints(etcd.clientUri())
        .keyPrefix(freshPrefix()).watchBufferSize(3));
    EtcdWatch w = (EtcdWatch) store.watch(CollectionKey.all("", "configmaps"),
        WatchOptions.builder().initialEvents(InitialEvents.SKIP).build());
    // one transaction: all six changes reach the watch in one etcd response
    List<Op> puts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      puts.add(Op.put(EtcdKeys.bytes(store.keyPrefix() + "//configmaps/default/o" + i),
          ByteSequence.from(Json.writeBytes(object("default", "o" + i))), PutOption.DEFAULT));
    }
    raw.getKVClient().txn().Then(puts.toArray(new Op[0])).commit().get(5, TimeUnit.SECONDS);
    await("the overflow", w::hasEnded);
    for (int i = 0; i < 3; i++) {
      WatchEvent e = w.poll(WAIT).orElseThrow();
      assertThat(((WatchEvent.ObjectChange) e).object().key().name()).isEqualTo("o" + i);
    }
    assertThat(w.poll(WAIT)).isEmpty();
    assertThat(w.isClosed()).isTrue();
  }

  @Test
  void aWatchThatEtcdCompactedPastEndsWithExpired() throws Exception {
    EtcdStore store = store();
    StoredObject a = store.create(cm("default", "a"), object("default", "a"));
    EtcdWatch w = (EtcdWatch) store.watch(CollectionKey.all("", "configmaps"),
        WatchOptions.builder().resourceVersion(a.resourceVersion()).build());
    w.onError(EtcdExceptionFactory.newCompactedException(a.resourceVersion() + 7));
    WatchEvent e = w.poll(WAIT).orElseThrow();
    assertThat(e).isInstanceOfSatisfying(WatchEvent.Failure.class, f -> {
      assertThat(f.status().code()).isEqualTo(410);
      assertThat(f.status().reason()).isEqualTo(StatusReason.EXPIRED);
      assertThat(f.status().message()).isEqualTo("too old resource version: "
          + a.resourceVersion() + " (" + (a.resourceVersion() + 6) + ")");
    });
    assertThat(w.poll(Duration.ZERO)).isEmpty();
    assertThat(w.isClosed()).isTrue();
    assertThat(store.compactedRevision()).isEqualTo(a.resourceVersion() + 7);
  }

  @Test
  void aBrokenWatchStreamEndsWithServiceUnavailableAfterTheQueuedEvents() throws Exception {
    EtcdStore store = store();
    EtcdWatch w = (EtcdWatch) store.watch(CollectionKey.all("", "configmaps"),
        WatchOptions.builder().initialEvents(InitialEvents.SKIP).build());
    StoredObject a = store.create(cm("default", "a"), object("default", "a"));
    assertThat(w.poll(WAIT)).isPresent();
    w.onError(Status.UNAVAILABLE.withDescription("io exception").asRuntimeException());
    WatchEvent e = w.poll(WAIT).orElseThrow();
    assertThat(e).isInstanceOfSatisfying(WatchEvent.Failure.class, f -> {
      assertThat(f.status().code()).isEqualTo(503);
      assertThat(f.status().reason()).isEqualTo(StatusReason.SERVICE_UNAVAILABLE);
      assertThat(f.status().message()).contains("UNAVAILABLE").contains("io exception");
    });
    // a failed watch is closed: a later write cannot reach it
    assertThat(w.isClosed()).isTrue();
    store.create(cm("default", "b"), object("default", "b"));
    assertThat(w.poll(Duration.ZERO)).isEmpty();
    assertThat(a.resourceVersion()).isPositive();
  }

  @Test
  void aWatchFromACompactedRevisionNamesTheCompaction() {
    EtcdStore store = store();
    StoredObject a = store.create(cm("default", "a"), object("default", "a"));
    store.update(a.key(), a.object().with("x", Value.of(1)), a.resourceVersion());
    StoredObject last = store.update(a.key(), a.object().with("x", Value.of(2)),
        io.apiserver4j.storage.Store.ANY_VERSION);
    store.compact(last.resourceVersion());
    assertThatThrownBy(() -> store.watch(CollectionKey.all("", "configmaps"),
        WatchOptions.builder().resourceVersion(a.resourceVersion()).build()))
        .isInstanceOfSatisfying(GoneException.class, e -> assertThat(e.getMessage())
            .isEqualTo("too old resource version: " + a.resourceVersion() + " ("
                + (last.resourceVersion() - 1) + ")"));
    // one revision before the compaction is still watchable: etcd keeps the compacted revision
    try (Watch w = store.watch(CollectionKey.all("", "configmaps"),
        WatchOptions.builder().resourceVersion(last.resourceVersion() - 1).build())) {
      assertThat(w.isClosed()).isFalse();
    }
  }

  // ------------------------------------------------------------------ compaction policies

  @Test
  void everyRevisionsCompactsBehindTheWrites() throws Exception {
    EtcdStore store = store(EtcdStore.builder().endpoints(etcd.clientUri())
        .keyPrefix(freshPrefix()).compactionPolicy(CompactionPolicy.everyRevisions(5))
        .compactionPollPeriod(Duration.ofMillis(10)));
    StoredObject first = store.create(cm("default", "c"), object("default", "c"));
    StoredObject last = first;
    for (int i = 0; i < 12; i++) {
      last = store.update(first.key(), first.object().with("n", Value.of(i)),
          io.apiserver4j.storage.Store.ANY_VERSION);
    }
    long end = last.resourceVersion();
    await("a compaction", () -> store.compactedRevision() >= end - 9);
    long compacted = store.compactedRevision();
    assertThat(compacted).isLessThanOrEqualTo(end - 5);
    CollectionKey c = CollectionKey.all("", "configmaps");
    assertThatThrownBy(() -> store.list(c, ListOptions.builder().exact(first.resourceVersion())
        .build())).isInstanceOf(GoneException.class);
    assertThat(store.list(c, ListOptions.builder().exact(end - 5).build()).items()).hasSize(1);
  }

  @Test
  void intervalCompactionFollowsKubesProtocolAcrossStores() throws Exception {
    ManualClock clock = new ManualClock();
    String prefix = freshPrefix();
    EtcdStore a = store(EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix)
        .clock(clock).compactionPolicy(CompactionPolicy.interval(Duration.ofMinutes(5)))
        .compactionPollPeriod(Duration.ofMillis(10)));
    EtcdStore b = store(EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(prefix)
        .clock(clock).compactionPolicy(CompactionPolicy.interval(Duration.ofMinutes(5)))
        .compactionPollPeriod(Duration.ofMillis(10)));
    ByteSequence compactKey = EtcdKeys.bytes(prefix + "/compact_rev_key");
    StoredObject early = a.create(cm("default", "x"), object("default", "x"));
    clock.advance(Duration.ofMinutes(4));
    assertThat(version(compactKey)).isZero();

    // first period: one store records the revision, nobody compacts yet
    clock.advance(Duration.ofMinutes(1));
    await("the first period's record", () -> version(compactKey) == 1);
    long recorded = Long.parseLong(value(compactKey));
    assertThat(recorded).isZero();
    StoredObject later = b.update(early.key(), early.object().with("n", Value.of(1)),
        early.resourceVersion());

    // second period: exactly one of them compacts at the revision of the first period
    clock.advance(Duration.ofMinutes(5));
    await("the second period's compaction",
        () -> a.compactedRevision() > 0 || b.compactedRevision() > 0);
    await("the second period's record", () -> version(compactKey) == 2);
    long compactedAt = Math.max(a.compactedRevision(), b.compactedRevision());
    assertThat(compactedAt).isGreaterThan(early.resourceVersion()).isLessThan(
        later.resourceVersion());
    assertThat(Long.parseLong(value(compactKey))).isEqualTo(compactedAt);
    // the store that did not compact learns of it from the key before etcd has applied it
    await("the compaction in etcd", () -> {
      try {
        b.list(CollectionKey.all("", "configmaps"),
            ListOptions.builder().exact(early.resourceVersion()).build());
        return false;
      } catch (GoneException e) {
        return true;
      }
    });
    assertThat(a.get(early.key())).isPresent();
  }

  private static long version(ByteSequence key) {
    try {
      List<KeyValue> kvs = raw.getKVClient().get(key).get(5, TimeUnit.SECONDS).getKvs();
      return kvs.isEmpty() ? 0 : kvs.get(0).getVersion();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String value(ByteSequence key) throws Exception {
    return str(raw.getKVClient().get(key).get(5, TimeUnit.SECONDS).getKvs().get(0).getValue());
  }

  // ------------------------------------------------------------------ timeouts

  @Test
  void everyCallIsBoundedByTheRequestTimeoutWhenEtcdDoesNotAnswer() throws Exception {
    // accepts connections and never says a word: the worst case for a client
    try (java.net.ServerSocket blackHole = new java.net.ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress())) {
      EtcdStore store = store(EtcdStore.builder()
          .endpoints(URI.create("http://127.0.0.1:" + blackHole.getLocalPort()))
          .requestTimeout(Duration.ofMillis(300)));
      assertFailsFastWith503(store);
    }
  }

  @Test
  void everyCallFailsFastWhenNothingListens() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    EtcdStore store = store(EtcdStore.builder()
        .endpoints(URI.create("http://127.0.0.1:" + port)).requestTimeout(Duration.ofSeconds(2)));
    assertFailsFastWith503(store);
  }

  static void assertFailsFastWith503(EtcdStore store) {
    ObjectKey key = cm("default", "a");
    CollectionKey all = CollectionKey.all("", "configmaps");
    List<Runnable> calls = List.of(
        () -> store.get(key),
        () -> store.list(all, ListOptions.all()),
        () -> store.create(key, object("default", "a")),
        () -> store.update(key, object("default", "a"), 5),
        () -> store.guaranteedUpdate(key, io.apiserver4j.storage.Preconditions.none(), o -> o),
        () -> store.delete(key, io.apiserver4j.storage.Preconditions.none()),
        () -> store.watch(all, WatchOptions.fromNow()),
        store::currentRevision);
    for (Runnable call : calls) {
      long start = System.nanoTime();
      assertThatThrownBy(call::run).isInstanceOfSatisfying(
          io.apiserver4j.core.errors.ServiceUnavailableException.class, e -> {
            assertThat(e.code()).isEqualTo(503);
            assertThat(e.getMessage()).startsWith("etcd is unavailable: cannot ");
          });
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("a failed call returns within the request timeout (plus scheduling slack)")
          .isLessThan(Duration.ofSeconds(5));
    }
  }

  // ------------------------------------------------------------------ builder

  @Test
  void theBuilderRejectsBadOptionsNamingThem() {
    Map<String, Runnable> cases = Map.of(
        "keyPrefix", () -> EtcdStore.builder().keyPrefix("no-slash"),
        "trailing", () -> EtcdStore.builder().keyPrefix("/a/"),
        "empty segment", () -> EtcdStore.builder().keyPrefix("/a//b"),
        "requestTimeout", () -> EtcdStore.builder().requestTimeout(Duration.ZERO),
        "watchBufferSize", () -> EtcdStore.builder().watchBufferSize(0),
        "stateCache", () -> EtcdStore.builder().stateCache(-1, 0),
        "endpoints", () -> EtcdStore.builder().endpoints(List.of()),
        "revisions", () -> CompactionPolicy.everyRevisions(0),
        "period", () -> CompactionPolicy.interval(Duration.ofSeconds(-1)));
    cases.forEach((what, call) -> assertThatThrownBy(call::run).as(what)
        .isInstanceOf(IllegalArgumentException.class));
    assertThatThrownBy(() -> EtcdStore.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("endpoints or client");
    assertThatThrownBy(() -> EtcdStore.builder().endpoints(etcd.clientUri()).client(raw))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("exclusive");
    assertThat(EtcdStore.builder().keyPrefix("/a/b")).isNotNull();
  }

  @Test
  void aCallerOwnedClientStaysOpenAfterTheStoreCloses() throws Exception {
    EtcdStore store = EtcdStore.builder().client(raw).keyPrefix(freshPrefix()).build();
    store.create(cm("default", "a"), object("default", "a"));
    store.close();
    assertThatThrownBy(() -> store.get(cm("default", "a")))
        .isInstanceOf(IllegalStateException.class);
    assertThat(rawRange(store.keyPrefix() + "/")).hasSize(1);
  }
}
