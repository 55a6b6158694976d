/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.storage.WatchEvent.Type;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryStoreTest extends StoreContractTest {
  @Override
  protected Store newStore(InstantSource clock) {
    return InMemoryStore.builder().clock(clock).build();
  }

  @Override
  protected void compact(Store store, long revision) {
    ((InMemoryStore) store).compact(revision);
  }

  private static InMemoryStore small(int historyLimit, int watchBuffer) {
    return InMemoryStore.builder().historyLimit(historyLimit).watchBufferSize(watchBuffer)
        .clock(new ManualClock()).build();
  }

  @Test
  void aListOfAFutureRevisionWaitsForIt() throws Exception {
    try (InMemoryStore s = InMemoryStore.create()) {
      long next = s.currentRevision() + 1;
      java.util.concurrent.CompletableFuture<ListResult> list =
          java.util.concurrent.CompletableFuture.supplyAsync(() ->
              s.list(configMaps(NS), ListOptions.builder().notOlderThan(next).build()));
      // kube's watch cache blocks such a read until it catches up; write once it is waiting
      while (s.freshnessWaiters() == 0 && !list.isDone()) {
        Thread.onSpinWait();
      }
      assertThat(list).isNotDone();
      s.create(cmKey(NS, "a"), configMap(NS, "a"));
      ListResult r = list.get();
      assertThat(r.resourceVersion()).isEqualTo(next);
      assertThat(r.items()).hasSize(1);
    }
  }

  @Test
  void aFutureRevisionNotReachedInThreeSecondsIsATimeoutToRetryAfterOneSecond() {
    try (InMemoryStore s = InMemoryStore.create()) {
      long future = s.currentRevision() + 1;
      assertThatThrownBy(() -> s.list(configMaps(NS), ListOptions.builder().notOlderThan(future)
          .build()))
          .isInstanceOfSatisfying(io.apiserver4j.core.errors.TimeoutException.class, e -> {
            // kube: storage.NewTooLargeResourceVersionError(rv, current, 1) after blockTimeout
            assertThat(e.getMessage()).isEqualTo("Timeout: Too large resource version: "
                + future + ", current: " + (future - 1));
            assertThat(e.status().details().orElseThrow().retryAfterSeconds()).isEqualTo(1);
          });
    }
  }

  @Test
  void anUpdateEncodingToTheStoredBytesWritesNothing() {
    // kube's GuaranteedUpdate skips the write when the encoded object equals the stored bytes:
    // 1.0 and 1 are the same JSON number
    try (InMemoryStore s = InMemoryStore.create()) {
      MapValue cm = configMap(NS, "a");
      StoredObject created = s.create(cmKey(NS, "a"),
          cm.with("spec", MapValue.ofEntries("x", io.apiserver4j.core.Value.of(1L))));
      StoredObject updated = s.update(cmKey(NS, "a"),
          cm.with("spec", MapValue.ofEntries("x", io.apiserver4j.core.Value.of(1.0))),
          created.resourceVersion());
      assertThat(updated.resourceVersion()).isEqualTo(created.resourceVersion());
      assertThat(s.currentRevision()).isEqualTo(created.resourceVersion());
    }
  }

  @Test
  void aDeletedObjectReadsBackAtTheDeletionRevisionFromTheHistory() throws Exception {
    try (InMemoryStore s = InMemoryStore.create()) {
      StoredObject created = s.create(cmKey(NS, "a"), withData(configMap(NS, "a"), "k", "v"));
      StoredObject deleted = s.delete(cmKey(NS, "a"), Preconditions.none());
      assertThat(deleted.object()).isEqualTo(StoredObjects.withResourceVersion(
          created.object(), deleted.resourceVersion()));
      try (Watch w = s.watch(configMaps(NS), WatchOptions.builder()
          .resourceVersion(created.resourceVersion()).build())) {
        WatchEvent e = w.poll(Duration.ofSeconds(10)).orElseThrow();
        assertThat(e).isEqualTo(new WatchEvent.ObjectChange(Type.DELETED, deleted));
      }
    }
  }

  private static MapValue bigConfigMap(String name, int i, int size) {
    return withData(configMap(NS, name), "big", i + "x".repeat(size));
  }

  @Test
  void historyIsBoundedByBytes() {
    try (InMemoryStore s = InMemoryStore.builder().historyBytes(1 << 20).clock(new ManualClock())
        .build()) {
      StoredObject first = s.create(cmKey(NS, "a"), bigConfigMap("a", 0, 100_000));
      long lastRv = first.resourceVersion();
      for (int i = 1; i <= 30; i++) {
        lastRv = s.update(cmKey(NS, "a"), bigConfigMap("a", i, 100_000), lastRv)
            .resourceVersion();
      }
      // about ten 100 KB versions fit in 1 MiB; the rest was compacted
      assertThat(s.retainedHistoryBytes()).isLessThanOrEqualTo(1 << 20);
      assertThat(s.compactedRevision()).isGreaterThan(first.resourceVersion() + 15);
      long expiredRv = first.resourceVersion();
      assertThatThrownBy(() -> s.watch(configMaps(NS), WatchOptions.builder()
          .resourceVersion(expiredRv).build())).isInstanceOf(GoneException.class);
      // the newest change is always kept, however large
      s.update(cmKey(NS, "a"), bigConfigMap("a", 99, 2 << 20), lastRv);
      assertThat(s.compactedRevision()).isEqualTo(s.currentRevision() - 1);
    }
  }

  @Test
  void historyIsBoundedByAge() {
    ManualClock clock = new ManualClock();
    try (InMemoryStore s = InMemoryStore.builder().historyAge(Duration.ofMinutes(5)).clock(clock)
        .build()) {
      StoredObject a = s.create(cmKey(NS, "a"), configMap(NS, "a"));
      clock.advance(Duration.ofMinutes(4));
      StoredObject b = s.create(cmKey(NS, "b"), configMap(NS, "b"));
      assertThat(s.compactedRevision()).isLessThan(a.resourceVersion());
      clock.advance(Duration.ofMinutes(2));
      s.create(cmKey(NS, "c"), configMap(NS, "c"));
      // a is six minutes old at the write of c: compacted; b (two minutes) is kept
      assertThat(s.compactedRevision()).isEqualTo(a.resourceVersion());
      try (Watch w = s.watch(configMaps(NS), WatchOptions.builder()
          .resourceVersion(a.resourceVersion()).build())) {
        assertThat(w).isNotNull();
      }
      assertThatThrownBy(() -> s.watch(configMaps(NS), WatchOptions.builder()
          .resourceVersion(a.resourceVersion() - 1).build())).isInstanceOf(GoneException.class);
      assertThat(b.resourceVersion()).isGreaterThan(a.resourceVersion());
    }
  }

  @Test
  void anEmptyStoreIsAtRevisionOne() {
    try (InMemoryStore s = InMemoryStore.create()) {
      assertThat(s.currentRevision()).isEqualTo(1);
      assertThat(s.compactedRevision()).isEqualTo(1);
      assertThat(s.list(configMaps(""), ListOptions.all()).resourceVersion()).isEqualTo(1);
      assertThat(s.create(cmKey(NS, "a"), configMap(NS, "a")).resourceVersion()).isEqualTo(2);
    }
  }

  @Test
  void watchingBeyondTheHistoryLimitIsExpiredWithTheOldestAvailableRevision() throws Exception {
    try (InMemoryStore s = small(5, 100)) {
      StoredObject first = s.create(cmKey(NS, "a"), configMap(NS, "a"));
      for (int i = 0; i < 9; i++) {
        s.update(cmKey(NS, "a"), withData(configMap(NS, "a"), "k", "v" + i), Store.ANY_VERSION);
      }
      // revisions 2..11 were written; only the last 5 changes (7..11) are retained
      assertThat(s.currentRevision()).isEqualTo(11);
      assertThat(s.compactedRevision()).isEqualTo(6);
      assertThatThrownBy(() -> s.watch(configMaps(NS),
          WatchOptions.builder().resourceVersion(first.resourceVersion()).build()))
          .isInstanceOfSatisfying(GoneException.class, e -> {
            assertThat(e.reason()).isEqualTo(StatusReason.EXPIRED);
            assertThat(e.code()).isEqualTo(410);
            assertThat(e.getMessage()).isEqualTo("too old resource version: 2 (6)");
          });
      try (Watch w = s.watch(configMaps(NS), WatchOptions.builder().resourceVersion(6).build())) {
        for (long rev = 7; rev <= 11; rev++) {
          assertChange(next(w), Type.MODIFIED, "default/a", rev);
        }
      }
    }
  }

  @Test
  void continueTokensExpireWhenTheHistoryMovesPastThem() {
    try (InMemoryStore s = small(3, 100)) {
      for (int i = 0; i < 3; i++) {
        s.create(cmKey(NS, "o" + i), configMap(NS, "o" + i));
      }
      ListResult p1 = s.list(configMaps(NS), ListOptions.builder().limit(1).build());
      ListResult p2 = s.list(configMaps(NS), ListOptions.builder().limit(1)
          .continueToken(p1.continueToken().get()).build());
      assertThat(names(p2)).containsExactly("default/o1");
      // the state at the pages' revision stays readable until a change after it is evicted too
      for (int i = 0; i < 3; i++) {
        s.update(cmKey(NS, "o2"), withData(configMap(NS, "o2"), "k", "x" + i), Store.ANY_VERSION);
      }
      assertThat(names(s.list(configMaps(NS), ListOptions.builder().limit(1)
          .continueToken(p2.continueToken().get()).build()))).containsExactly("default/o2");
      s.update(cmKey(NS, "o2"), withData(configMap(NS, "o2"), "k", "last"), Store.ANY_VERSION);
      assertThatThrownBy(() -> s.list(configMaps(NS), ListOptions.builder().limit(1)
          .continueToken(p2.continueToken().get()).build()))
          .isInstanceOfSatisfying(GoneException.class, e -> assertThat(e.getMessage())
              .isEqualTo(StoreErrors.INCONSISTENT_CONTINUE_MESSAGE));
    }
  }

  @Test
  void aConsumerThatFallsBehindGetsItsBufferThenTheWatchEnds() throws Exception {
    try (InMemoryStore s = small(100, 3)) {
      Watch w = s.watch(configMaps(""), fromNowWithoutState());
      List<Long> written = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        written.add(s.create(cmKey(NS, "o" + i), configMap(NS, "o" + i)).resourceVersion());
      }
      for (int i = 0; i < 3; i++) {
        assertChange(next(w), Type.ADDED, "default/o" + i, written.get(i));
      }
      assertThat(w.poll(EVENT_TIMEOUT)).isEmpty();
      assertThat(w.isClosed()).isTrue();
      // the consumer resumes from the last revision it saw and misses nothing
      try (Watch resumed = s.watch(configMaps(""),
          WatchOptions.builder().resourceVersion(written.get(2)).build())) {
        assertChange(next(resumed), Type.ADDED, "default/o3", written.get(3));
        assertChange(next(resumed), Type.ADDED, "default/o4", written.get(4));
      }
    }
  }

  @Test
  void changesToOtherResourcesDoNotFillAWatchBuffer() throws Exception {
    try (InMemoryStore s = small(100, 2)) {
      Watch w = s.watch(configMaps(NS), fromNowWithoutState());
      for (int i = 0; i < 10; i++) {
        s.create(ObjectKey.namespaced("", "secrets", NS, "s" + i), configMap(NS, "s" + i));
        s.create(cmKey("other", "c" + i), configMap("other", "c" + i));
      }
      StoredObject mine = s.create(cmKey(NS, "mine"), configMap(NS, "mine"));
      assertChange(next(w), Type.ADDED, "default/mine", mine.resourceVersion());
      assertThat(w.isClosed()).isFalse();
      w.close();
    }
  }

  @Test
  void compactingBeyondTheCurrentRevisionIsRejected() {
    try (InMemoryStore s = InMemoryStore.create()) {
      assertThatThrownBy(() -> s.compact(5)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("beyond the current revision 1");
    }
  }

  @Test
  void compactionKeepsTheStateAtTheCompactedRevisionReadable() {
    try (InMemoryStore s = InMemoryStore.create()) {
      StoredObject a = s.create(cmKey(NS, "a"), configMap(NS, "a"));
      StoredObject b = s.create(cmKey(NS, "b"), configMap(NS, "b"));
      s.delete(cmKey(NS, "a"), Preconditions.none());
      long atCompaction = s.currentRevision();
      s.update(cmKey(NS, "b"), withData(b.object(), "k", "2"), b.resourceVersion());
      s.compact(atCompaction);
      assertThat(s.list(configMaps(NS), ListOptions.builder().exact(atCompaction).build()).items())
          .containsExactly(b);
      assertThatThrownBy(() -> s.list(configMaps(NS),
          ListOptions.builder().exact(a.resourceVersion()).build()))
          .isInstanceOf(GoneException.class);
      // a deleted key leaves no trace once compacted, and can be created again
      assertThat(s.create(cmKey(NS, "a"), configMap(NS, "a")).resourceVersion())
          .isGreaterThan(atCompaction);
    }
  }

  @Test
  void anIdleWatchWithBookmarksReportsTheCurrentRevision() throws Exception {
    ManualClock clock = new ManualClock();
    try (InMemoryStore s = InMemoryStore.builder().clock(clock).build()) {
      s.create(cmKey(NS, "a"), configMap(NS, "a"));
      Watch w = s.watch(configMaps("other"), WatchOptions.builder()
          .initialEvents(InitialEvents.SKIP).allowBookmarks(true)
          .bookmarkInterval(Duration.ofSeconds(1)).build());
      s.create(cmKey(NS, "b"), configMap(NS, "b"));
      clock.advance(Duration.ofSeconds(1));
      Optional<WatchEvent> e = w.poll(EVENT_TIMEOUT);
      assertThat(e).contains(new WatchEvent.Bookmark(s.currentRevision(), false));
      assertThat(w.poll(Duration.ofMillis(50))).isEmpty();
      w.close();
    }
  }

  @Test
  void builderRejectsBadSettings() {
    assertThatThrownBy(() -> InMemoryStore.builder().historyLimit(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("historyLimit");
    assertThatThrownBy(() -> InMemoryStore.builder().watchBufferSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watchBufferSize");
    assertThatThrownBy(() -> InMemoryStore.builder().clock(null))
        .isInstanceOf(NullPointerException.class).hasMessage("clock");
  }
}
