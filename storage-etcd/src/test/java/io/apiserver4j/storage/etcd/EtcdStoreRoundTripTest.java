/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How many etcd requests each write costs, counted by a gRPC interceptor on the store's client
 * while a real etcd answers them: one transaction for a read-modify-write whose state the store
 * knows or that needs no state, and the outcomes (Conflict, NotFound, no-op, failed
 * preconditions) decided from what the transaction's Else branch returns. {@code other} plays a
 * second API server on the same etcd, whose writes this store does not see. The store connects
 * to etcd itself here; {@link EtcdStoreCallerClientRoundTripTest} runs the same on a client the
 * caller built.
 */
class EtcdStoreRoundTripTest {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Map<String, AtomicInteger> CALLS = new java.util.concurrent.ConcurrentHashMap<>();
  private static final ClientInterceptor COUNTER = new ClientInterceptor() {
    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
        CallOptions options, Channel next) {
      String name = method.getFullMethodName();
      if (name.startsWith("etcdserverpb.KV/")) {
        CALLS.computeIfAbsent(name.substring("etcdserverpb.KV/".length()),
            n -> new AtomicInteger()).incrementAndGet();
      }
      return next.newCall(method, options);
    }
  };
  private static EtcdServer etcd;
  private static Client counted;
  private static Client raw;
  private final List<EtcdStore> stores = new ArrayList<>();
  private String prefix;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
    counted = Client.builder().endpoints(etcd.clientUri()).retryMaxAttempts(0)
        .interceptor(COUNTER).build();
    raw = Client.builder().endpoints(etcd.clientUri()).build();
  }

  @AfterAll
  static void stopEtcd() {
    counted.close();
    raw.close();
    etcd.close();
  }

  @AfterEach
  void closeStores() {
    stores.forEach(EtcdStore::close);
  }

  /** A store whose requests to etcd are counted. */
  EtcdStore.Builder counted() {
    return EtcdStore.builder().endpoints(etcd.clientUri()).interceptor(COUNTER);
  }

  /** A store on a client the caller built, with counted requests. */
  static EtcdStore.Builder onCountedClient() {
    return EtcdStore.builder().client(counted);
  }

  /** This test's store: counted, remembering states unless {@code remembering} is false. */
  private EtcdStore store(boolean remembering) {
    prefix = "/rt/p" + PREFIXES.incrementAndGet();
    EtcdStore.Builder b = counted().keyPrefix(prefix);
    if (!remembering) {
      b.stateCache(0, 0);
    }
    return keep(b.build());
  }

  private EtcdStore store() {
    return store(true);
  }

  /** Another API server on the same etcd and prefix, with its own client (not counted). */
  private EtcdStore other() {
    return keep(EtcdStore.builder().client(raw).keyPrefix(prefix).build());
  }

  private EtcdStore keep(EtcdStore s) {
    stores.add(s);
    return s;
  }

  /** The KV requests (Range, Txn, Put, DeleteRange) {@code call} sent, by method. */
  private static Map<String, Integer> requests(Runnable call) {
    CALLS.clear();
    call.run();
    Map<String, Integer> sent = new TreeMap<>();
    CALLS.forEach((k, v) -> sent.put(k, v.get()));
    return sent;
  }

  /** Runs {@code call}, asserting the requests it sent; returns its result. */
  private static <T> T expectRequests(Map<String, Integer> expected, Supplier<T> call) {
    List<T> result = new ArrayList<>();
    assertThat(requests(() -> result.add(call.get()))).isEqualTo(expected);
    return result.get(0);
  }

  /** Asserts that {@code call} fails with {@code type} and message, sending {@code expected}. */
  private static void expectFailure(Map<String, Integer> expected, Runnable call,
      Class<? extends RuntimeException> type, String message) {
    CALLS.clear();
    assertThatThrownBy(call::run).isInstanceOf(type).hasMessage(message);
    Map<String, Integer> sent = new TreeMap<>();
    CALLS.forEach((k, v) -> sent.put(k, v.get()));
    assertThat(sent).isEqualTo(expected);
  }

  private static final Map<String, Integer> ONE_TXN = Map.of("Txn", 1);
  private static final Map<String, Integer> ONE_READ = Map.of("Range", 1);
  private static final Map<String, Integer> READ_AND_TXN = Map.of("Range", 1, "Txn", 1);

  private static ObjectKey key(String name) {
    return ObjectKey.namespaced("", "configmaps", "default", name);
  }

  private static MapValue object(String name, String uid, long n) {
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("ConfigMap"),
        "metadata", MapValue.ofEntries("name", Value.of(name), "namespace", Value.of("default"),
            "uid", Value.of(uid)),
        "data", MapValue.ofEntries("n", Value.of(Long.toString(n))));
  }

  private static long n(StoredObject o) {
    return Long.parseLong(((io.apiserver4j.core.StringValue) ((MapValue) o.object()
        .getOrNull("data")).getOrNull("n")).value());
  }

  private static MapValue withN(MapValue o, long n) {
    return o.with("data", MapValue.ofEntries("n", Value.of(Long.toString(n))));
  }

  /** What etcd holds for the key: its mod revision, or 0 if it is absent. */
  private long modRevision(String name) throws Exception {
    List<KeyValue> kvs = raw.getKVClient().get(EtcdKeys.bytes(prefix + "//configmaps/default/"
        + name)).get(5, TimeUnit.SECONDS).getKvs();
    return kvs.isEmpty() ? 0 : kvs.get(0).getModRevision();
  }

  private static String conflict(String name) {
    return "Operation cannot be fulfilled on configmaps \"" + name + "\": the object has been "
        + "modified; please apply your changes to the latest version and try again";
  }

  private static String preconditionFailed(String name, String detail) {
    return "Operation cannot be fulfilled on configmaps \"" + name + "\": StorageError: invalid "
        + "object, Code: 4, Key: /registry/configmaps/default/" + name + ", ResourceVersion: 0, "
        + "AdditionalErrorMsg: Precondition failed: " + detail;
  }

  // ------------------------------------------------------------------ update

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void anUpdateAtTheVersionJustReadOrWrittenIsOneTransaction(boolean remembering)
      throws Exception {
    EtcdStore store = store(remembering);
    store.create(key("a"), object("a", "u1", 0));
    StoredObject read = store.get(key("a")).orElseThrow();
    StoredObject first = expectRequests(ONE_TXN,
        () -> store.update(key("a"), withN(read.object(), 1), read.resourceVersion()));
    StoredObject second = expectRequests(ONE_TXN,
        () -> store.update(key("a"), withN(first.object(), 2), first.resourceVersion()));
    assertThat(second.resourceVersion()).isGreaterThan(first.resourceVersion())
        .isEqualTo(modRevision("a"));
    assertThat(store.get(key("a"))).contains(second);
    assertThat(n(second)).isEqualTo(2);
  }

  @Test
  void anUpdateAtAVersionOnlyAnotherServerSawIsOneTransaction() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject elsewhere = other.update(key("a"), object("a", "u1", 5), Store.ANY_VERSION);
    StoredObject updated = expectRequests(ONE_TXN, () -> store.update(key("a"),
        withN(elsewhere.object(), 6), elsewhere.resourceVersion()));
    assertThat(n(other.get(key("a")).orElseThrow())).isEqualTo(6);
    assertThat(updated.resourceVersion()).isEqualTo(modRevision("a"));
  }

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void aNoOpUpdateIsOneRequestAndWritesNothing(boolean remembering) throws Exception {
    EtcdStore store = store(remembering);
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    StoredObject read = store.get(key("a")).orElseThrow();
    long revision = store.currentRevision();
    // the caller's resourceVersion does not count: it is replaced on every write
    StoredObject same = expectRequests(ONE_TXN, () -> store.update(key("a"),
        object("a", "u1", 0).with("metadata", MapValue.ofEntries("name", Value.of("a"),
            "namespace", Value.of("default"), "uid", Value.of("u1"),
            "resourceVersion", Value.of("12345"))), read.resourceVersion()));
    assertThat(same).isEqualTo(read).isEqualTo(created);
    StoredObject any = expectRequests(ONE_TXN,
        () -> store.update(key("a"), object("a", "u1", 0), Store.ANY_VERSION));
    assertThat(any).isEqualTo(read);
    assertThat(store.currentRevision()).isEqualTo(revision);
    assertThat(modRevision("a")).isEqualTo(created.resourceVersion());
  }

  @Test
  void anUpdateEqualButForTheOrderOfItsKeysIsANoOpOnAKnownState() throws Exception {
    EtcdStore store = store();
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    MapValue reordered = MapValue.ofEntries(
        "data", MapValue.ofEntries("n", Value.of("0")),
        "metadata", MapValue.ofEntries("uid", Value.of("u1"), "namespace", Value.of("default"),
            "name", Value.of("a")),
        "kind", Value.of("ConfigMap"), "apiVersion", Value.of("v1"));
    StoredObject same = expectRequests(ONE_TXN,
        () -> store.update(key("a"), reordered, created.resourceVersion()));
    assertThat(same).isEqualTo(created);
    assertThat(modRevision("a")).isEqualTo(created.resourceVersion());
  }

  @Test
  void aNoOpOnARememberedStateThatMovedOnIsDecidedOnTheCurrentState() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    StoredObject elsewhere = other.update(key("a"), object("a", "u1", 7), Store.ANY_VERSION);
    // the store still remembers n=0: an update to n=0 must not take that for a no-op
    StoredObject written = expectRequests(Map.of("Txn", 2),
        () -> store.update(key("a"), object("a", "u1", 0), Store.ANY_VERSION));
    assertThat(written.resourceVersion()).isGreaterThan(elsewhere.resourceVersion());
    assertThat(n(store.get(key("a")).orElseThrow())).isZero();
    // the other way round: an identity update confirms the remembered state in one request
    StoredObject now = other.update(key("a"), object("a", "u1", 9), Store.ANY_VERSION);
    StoredObject unchanged = expectRequests(Map.of("Txn", 1), () -> store.guaranteedUpdate(
        key("a"), Preconditions.none(), o -> o));
    assertThat(unchanged).isEqualTo(now);
    assertThat(modRevision("a")).isEqualTo(now.resourceVersion());
    assertThat(created.resourceVersion()).isLessThan(now.resourceVersion());
  }

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void aStaleUpdateIsAConflictFromTheSameTransaction(boolean remembering) throws Exception {
    EtcdStore store = store(remembering);
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject read = store.get(key("a")).orElseThrow();
    StoredObject elsewhere = other.update(key("a"), object("a", "u1", 1),
        read.resourceVersion());
    expectFailure(ONE_TXN, () -> store.update(key("a"), withN(read.object(), 2),
        read.resourceVersion()), ConflictException.class, conflict("a"));
    // also when the stale version's object is the current one's
    expectFailure(ONE_TXN, () -> store.update(key("a"), elsewhere.object(),
        read.resourceVersion()), ConflictException.class, conflict("a"));
    assertThat(modRevision("a")).isEqualTo(elsewhere.resourceVersion());
  }

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void anUpdateOfADeletedKeyIsNotFoundFromTheSameTransaction(boolean remembering)
      throws Exception {
    EtcdStore store = store(remembering);
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject read = store.get(key("a")).orElseThrow();
    other.delete(key("a"), Preconditions.none());
    String notFound = "configmaps \"a\" not found";
    expectFailure(ONE_TXN, () -> store.update(key("a"), withN(read.object(), 1),
        read.resourceVersion()), NotFoundException.class, notFound);
    expectFailure(ONE_TXN, () -> store.update(key("a"), read.object(), read.resourceVersion()),
        NotFoundException.class, notFound);
    expectFailure(ONE_TXN, () -> store.update(key("a"), read.object(), Store.ANY_VERSION),
        NotFoundException.class, notFound);
    assertThat(modRevision("a")).isZero();
  }

  @Test
  void preconditionsAreCheckedOnTheKnownStateWithoutAnotherRead() throws Exception {
    EtcdStore store = store();
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    StoredObject updated = expectRequests(ONE_TXN, () -> store.update(key("a"),
        withN(created.object(), 1), created.resourceVersion(),
        Preconditions.ofUid("u1").withResourceVersion(created.resourceVersionString())));
    // a failure is confirmed on the current state before it is reported
    expectFailure(ONE_READ, () -> store.update(key("a"), withN(updated.object(), 2),
        updated.resourceVersion(), Preconditions.ofUid("u2")), ConflictException.class,
        preconditionFailed("a", "UID in precondition: u2, UID in object meta: u1"));
    expectFailure(ONE_READ, () -> store.update(key("a"), withN(updated.object(), 2),
        updated.resourceVersion(), Preconditions.ofResourceVersion("1")),
        ConflictException.class, preconditionFailed("a", "ResourceVersion in precondition: 1, "
            + "ResourceVersion in object meta: " + updated.resourceVersion()));
    assertThat(modRevision("a")).isEqualTo(updated.resourceVersion());
  }

  @Test
  void withoutAKnownStatePreconditionsAreCheckedOnARead() throws Exception {
    EtcdStore store = store(false);
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    StoredObject updated = expectRequests(READ_AND_TXN, () -> store.update(key("a"),
        withN(created.object(), 1), created.resourceVersion(), Preconditions.ofUid("u1")));
    expectFailure(ONE_READ, () -> store.update(key("a"), withN(updated.object(), 2),
        updated.resourceVersion(), Preconditions.ofUid("u2")), ConflictException.class,
        preconditionFailed("a", "UID in precondition: u2, UID in object meta: u1"));
    assertThat(modRevision("a")).isEqualTo(updated.resourceVersion());
  }

  @Test
  void aRememberedStateFailingAPreconditionAfterARecreationIsAConflict() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    StoredObject first = store.create(key("a"), object("a", "u1", 0));
    other.delete(key("a"), Preconditions.none());
    StoredObject second = other.create(key("a"), object("a", "u2", 0));
    // the remembered u1 fails the precondition, but the key moved on: a Conflict, as before
    expectFailure(ONE_READ, () -> store.update(key("a"), object("a", "u2", 1),
        first.resourceVersion(), Preconditions.ofUid("u2")), ConflictException.class,
        conflict("a"));
    StoredObject updated = expectRequests(ONE_TXN, () -> store.update(key("a"),
        object("a", "u2", 1), second.resourceVersion(), Preconditions.ofUid("u2")));
    assertThat(updated.resourceVersion()).isEqualTo(modRevision("a"));
  }

  // ------------------------------------------------------------------ guaranteedUpdate

  @Test
  void aGuaranteedUpdateOfAKnownStateIsOneTransaction() throws Exception {
    EtcdStore store = store();
    store.create(key("a"), object("a", "u1", 0));
    store.get(key("a"));
    StoredObject one = expectRequests(ONE_TXN, () -> store.guaranteedUpdate(key("a"),
        Preconditions.ofUid("u1"), o -> withN(o, 1)));
    StoredObject two = expectRequests(ONE_TXN, () -> store.guaranteedUpdate(key("a"),
        Preconditions.none(), o -> withN(o, 2)));
    assertThat(two.resourceVersion()).isGreaterThan(one.resourceVersion())
        .isEqualTo(modRevision("a"));
    assertThat(n(store.get(key("a")).orElseThrow())).isEqualTo(2);
  }

  @Test
  void aGuaranteedUpdateWithoutAKnownStateReadsFirst() throws Exception {
    EtcdStore store = store(false);
    store.create(key("a"), object("a", "u1", 0));
    StoredObject one = expectRequests(READ_AND_TXN, () -> store.guaranteedUpdate(key("a"),
        Preconditions.none(), o -> withN(o, 1)));
    assertThat(one.resourceVersion()).isEqualTo(modRevision("a"));
  }

  @Test
  void aStaleGuessCostsOneFailedCompareAndTheUpdateAppliesToTheCurrentState() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    other.update(key("a"), object("a", "u1", 10), Store.ANY_VERSION);
    List<Long> seen = new ArrayList<>();
    StoredObject incremented = expectRequests(Map.of("Txn", 2), () -> store.guaranteedUpdate(
        key("a"), Preconditions.none(), o -> {
          long n = Long.parseLong(((io.apiserver4j.core.StringValue) ((MapValue) o
              .getOrNull("data")).getOrNull("n")).value());
          seen.add(n);
          return withN(o, n + 1);
        }));
    assertThat(seen).containsExactly(0L, 10L);
    assertThat(n(incremented)).isEqualTo(11);
    assertThat(n(other.get(key("a")).orElseThrow())).isEqualTo(11);
  }

  @Test
  void whatEndsAnUpdateOnAStaleGuessIsDecidedAgainOnTheCurrentState() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    other.delete(key("a"), Preconditions.none());
    other.create(key("a"), object("a", "u2", 1));
    // the guess (u1, n=0) fails the precondition and makes the function throw; etcd's state not
    StoredObject updated = expectRequests(READ_AND_TXN, () -> store.guaranteedUpdate(key("a"),
        Preconditions.ofUid("u2"), o -> {
          if (((MapValue) o.getOrNull("data")).getOrNull("n").equals(Value.of("0"))) {
            throw new IllegalStateException("refusing n=0");
          }
          return withN(o, 2);
        }));
    assertThat(n(updated)).isEqualTo(2);
    // a function that throws on the current state too: its exception, after one read
    CALLS.clear();
    assertThatThrownBy(() -> store.guaranteedUpdate(key("a"), Preconditions.none(), o -> {
      throw new IllegalStateException("always");
    })).isInstanceOf(IllegalStateException.class).hasMessage("always");
    assertThat(CALLS).containsOnlyKeys("Range");
    // and a precondition the current state fails too
    expectFailure(ONE_READ, () -> store.guaranteedUpdate(key("a"), Preconditions.ofUid("u1"),
        o -> o), ConflictException.class,
        preconditionFailed("a", "UID in precondition: u1, UID in object meta: u2"));
  }

  @Test
  void concurrentGuaranteedUpdatesOnTwoServersLoseNothing() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("c"), MapValue.ofEntries("n", IntegerValue.of(0)));
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < 4; t++) {
      EtcdStore s = t % 2 == 0 ? store : other;
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < 25; i++) {
            s.guaranteedUpdate(key("c"), Preconditions.none(), o -> o.with("n",
                IntegerValue.of(((IntegerValue) o.getOrNull("n")).value() + 1)));
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(30_000);
    }
    assertThat(failures).isEmpty();
    assertThat(store.get(key("c")).orElseThrow().object().getOrNull("n"))
        .isEqualTo(IntegerValue.of(100));
  }

  // ------------------------------------------------------------------ delete

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void aDeleteAtAResourceVersionIsOneTransaction(boolean remembering) throws Exception {
    EtcdStore store = store(remembering);
    EtcdStore other = other();
    StoredObject created = other.create(key("a"), object("a", "u1", 3));
    StoredObject deleted = expectRequests(ONE_TXN, () -> store.delete(key("a"),
        Preconditions.ofResourceVersion(created.resourceVersionString())));
    assertThat(deleted.resourceVersion()).isGreaterThan(created.resourceVersion())
        .isEqualTo(store.currentRevision());
    assertThat(deleted.object().without("metadata"))
        .isEqualTo(created.object().without("metadata"));
    assertThat(modRevision("a")).isZero();
    expectFailure(ONE_TXN, () -> store.delete(key("a"),
        Preconditions.ofResourceVersion(created.resourceVersionString())),
        NotFoundException.class, "configmaps \"a\" not found");
  }

  @ParameterizedTest(name = "remembering states: {0}")
  @ValueSource(booleans = {true, false})
  void aDeleteAtAStaleResourceVersionFailsItsPreconditionInOneTransaction(boolean remembering)
      throws Exception {
    EtcdStore store = store(remembering);
    EtcdStore other = other();
    StoredObject created = store.create(key("a"), object("a", "u1", 0));
    StoredObject moved = other.update(key("a"), object("a", "u1", 1), Store.ANY_VERSION);
    expectFailure(ONE_TXN, () -> store.delete(key("a"),
        Preconditions.ofResourceVersion(created.resourceVersionString())),
        ConflictException.class, preconditionFailed("a", "ResourceVersion in precondition: "
            + created.resourceVersion() + ", ResourceVersion in object meta: "
            + moved.resourceVersion()));
    // kube compares the strings: "0<rv>" names no state
    String padded = "0" + moved.resourceVersionString();
    assertThatThrownBy(() -> store.delete(key("a"), Preconditions.ofResourceVersion(padded)))
        .isInstanceOf(ConflictException.class).hasMessageContaining(
            "ResourceVersion in precondition: " + padded + ", ResourceVersion in object meta: "
                + moved.resourceVersion());
    assertThat(modRevision("a")).isEqualTo(moved.resourceVersion());
  }

  @Test
  void aDeleteWithAUidPreconditionOfAKnownStateIsOneTransaction() throws Exception {
    EtcdStore store = store();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject read = store.get(key("a")).orElseThrow();
    expectFailure(ONE_READ, () -> store.delete(key("a"), Preconditions.ofUid("u2")),
        ConflictException.class,
        preconditionFailed("a", "UID in precondition: u2, UID in object meta: u1"));
    StoredObject deleted = expectRequests(ONE_TXN, () -> store.delete(key("a"),
        Preconditions.ofUid("u1").withResourceVersion(read.resourceVersionString())));
    assertThat(deleted.object().without("metadata")).isEqualTo(read.object().without("metadata"));
    assertThat(modRevision("a")).isZero();
  }

  @Test
  void aDeleteWithAUidPreconditionWithoutAKnownStateReadsFirst() throws Exception {
    EtcdStore store = store(false);
    store.create(key("a"), object("a", "u1", 0));
    expectRequests(READ_AND_TXN, () -> store.delete(key("a"), Preconditions.ofUid("u1")));
    assertThat(modRevision("a")).isZero();
  }

  @Test
  void aDeleteWithAStaleGuessRetriesOnTheCurrentState() throws Exception {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject moved = other.update(key("a"), object("a", "u1", 4), Store.ANY_VERSION);
    StoredObject deleted = expectRequests(Map.of("Txn", 2), () -> store.delete(key("a"),
        Preconditions.ofUid("u1")));
    assertThat(n(deleted)).isEqualTo(4);
    assertThat(deleted.resourceVersion()).isGreaterThan(moved.resourceVersion());
    assertThat(modRevision("a")).isZero();
  }

  // ------------------------------------------------------------------ reads, bounds

  @Test
  void readsAlwaysAskEtcd() {
    EtcdStore store = store();
    EtcdStore other = other();
    store.create(key("a"), object("a", "u1", 0));
    StoredObject elsewhere = other.update(key("a"), object("a", "u1", 1), Store.ANY_VERSION);
    assertThat(requests(() -> assertThat(store.get(key("a"))).contains(elsewhere)))
        .containsExactly(entry("Range", 1));
    other.delete(key("a"), Preconditions.none());
    assertThat(store.get(key("a"))).isEmpty();
  }

  @Test
  void theRememberedStatesStayWithinTheirBounds() throws Exception {
    prefix = "/rt/p" + PREFIXES.incrementAndGet();
    EtcdStore store = keep(counted().keyPrefix(prefix).stateCache(3, 1 << 20).build());
    for (int i = 0; i < 5; i++) {
      store.create(key("o" + i), object("o" + i, "u" + i, 0));
    }
    assertThat(store.stateCache().size()).isEqualTo(3);
    // a forgotten state (o0) costs a read before a guaranteed update, a remembered one (o4) not
    expectRequests(READ_AND_TXN, () -> store.guaranteedUpdate(key("o0"), Preconditions.none(),
        o -> withN(o, 1)));
    expectRequests(ONE_TXN, () -> store.guaranteedUpdate(key("o4"), Preconditions.none(),
        o -> withN(o, 1)));
    assertThat(store.stateCache().size()).isEqualTo(3);
    store.delete(key("o4"), Preconditions.none());
    assertThat(store.stateCache().latest(key("o4"))).isNull();
  }
}
