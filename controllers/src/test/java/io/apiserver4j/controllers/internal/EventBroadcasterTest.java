/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The broadcaster against client-go's tools/record semantics: a recorder hands an Event over
 * without waiting, one worker writes them in order, and with {@code maxQueuedEvents} (1000)
 * waiting a further one is dropped ({@code ActionOrDrop}).
 */
class EventBroadcasterTest {
  private final Activity activity = new Activity();
  private final EventBroadcaster broadcaster = new EventBroadcaster(activity);
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    broadcaster.shutDown();
    threads.shutdownNow();
  }

  @Test
  void eventsAreWrittenInOrderByOneWorkerAndIdleWaitsForThem() {
    List<Integer> written = new CopyOnWriteArrayList<>();
    List<String> writers = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 50; i++) {
      int n = i;
      assertThat(broadcaster.submit(() -> {
        written.add(n);
        writers.add(Thread.currentThread().getName());
      })).isTrue();
    }
    // nothing is written on the recording thread
    assertThat(written).isEmpty();
    assertThat(broadcaster.idle()).isFalse();
    broadcaster.start(threads);
    assertThat(activity.await(broadcaster::idle, Duration.ofSeconds(30))).isTrue();
    assertThat(written).hasSize(50).isSorted();
    assertThat(writers).containsOnly("apiserver4j-event-broadcaster");
  }

  @Test
  void aThousandQueuedEventsAreTheLimitAndAFurtherOneIsDropped() {
    for (int i = 0; i < EventBroadcaster.MAX_QUEUED_EVENTS; i++) {
      assertThat(broadcaster.submit(() -> { })).isTrue();
    }
    assertThat(broadcaster.submit(() -> { })).isFalse();
    broadcaster.start(threads);
    assertThat(activity.await(broadcaster::idle, Duration.ofSeconds(30))).isTrue();
    assertThat(broadcaster.submit(() -> { })).isTrue();
  }

  @Test
  void aFailingWriteDoesNotStopTheWorker() {
    List<String> written = new CopyOnWriteArrayList<>();
    broadcaster.start(threads);
    broadcaster.submit(() -> {
      throw new IllegalArgumentException("a bug in a sink");
    });
    broadcaster.submit(() -> written.add("next"));
    assertThat(activity.await(broadcaster::idle, Duration.ofSeconds(30))).isTrue();
    assertThat(written).containsExactly("next");
  }

  @Test
  void shutDownWritesWhatIsQueuedThenRefusesMore() {
    List<Integer> written = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      broadcaster.submit(() -> written.add(n));
    }
    broadcaster.start(threads);
    broadcaster.shutDown();
    assertThat(written).containsExactly(0, 1, 2, 3, 4);
    assertThat(broadcaster.submit(() -> written.add(9))).isFalse();
  }
}
