/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import io.apiserver4j.storage.InMemoryStore.HistoryEvent;
import io.apiserver4j.storage.InMemoryStore.Resource;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A watch on an {@link InMemoryStore}. The store's writer hands it raw changes under the write
 * lock (a non-blocking offer into a bounded queue); selector evaluation and kube's ADDED/DELETED
 * transitions happen on the consumer thread in {@link #poll}, keeping the writer's critical
 * section small.
 */
final class InMemoryWatch implements Watch {
  /** Queued to wake a consumer blocked in poll when the watch ends. */
  private static final HistoryEvent WAKE_UP = new HistoryEvent(-1, null, null, 0, 0);

  private final InMemoryStore store;
  private final Resource resource;
  private final CollectionKey collection;
  private final WatchFilter filter;
  private final boolean allowBookmarks;
  private final Duration bookmarkInterval;
  private final InstantSource clock;
  private final long deliverAfter;
  private final ArrayBlockingQueue<HistoryEvent> queue;
  private final int bufferSize;

  /** Set when the writer could not queue a change, or the store closed: drain, then end. */
  private volatile boolean ended;
  /** Set by close(): end at once, dropping undelivered events. */
  private volatile boolean closedByConsumer;

  // consumer-side state, guarded by "this"
  private final ArrayDeque<WatchEvent> pending = new ArrayDeque<>();
  private long lastRevision;
  private Instant nextBookmark;
  private volatile boolean done;

  InMemoryWatch(InMemoryStore store, Resource resource, CollectionKey collection,
      WatchOptions options, long deliverAfter, int bufferSize, InstantSource clock) {
    this.store = store;
    this.resource = resource;
    this.collection = collection;
    this.filter = WatchFilter.of(options);
    this.allowBookmarks = options.allowBookmarks();
    this.bookmarkInterval = options.bookmarkInterval();
    this.clock = clock;
    this.deliverAfter = deliverAfter;
    // one extra slot so that a wake-up always fits after a full buffer of changes
    this.queue = new ArrayBlockingQueue<>(bufferSize + 1);
    this.bufferSize = bufferSize;
  }

  /** Called by the writer, under the store's write lock. */
  void offer(HistoryEvent e) {
    if (ended || e.revision <= deliverAfter) {
      return;
    }
    if (!inScope(e)) {
      return;
    }
    if (queue.size() >= bufferSize || !queue.offer(e)) {
      // the consumer fell too far behind: it gets what is buffered, then the watch ends
      ended = true;
      store.unregister(resource, this);
      queue.offer(WAKE_UP);
    }
  }

  private boolean inScope(HistoryEvent e) {
    ObjectKey key = e.version.value.key();
    return collection.contains(key) && filter.admitsName(key.name());
  }

  /** Ends the watch after the buffered events (store closing). */
  void end() {
    ended = true;
    queue.offer(WAKE_UP);
  }

  synchronized void startWithSnapshot(List<StoredObject> snapshot, long at) {
    lastRevision = at;
    nextBookmark = clock.instant().plus(bookmarkInterval);
    if (snapshot == null) {
      pending.add(new WatchEvent.Failure(StoreErrors.tooOldResourceVersion(at,
          store.compactedRevision()).status()));
      failed();
      return;
    }
    pending.addAll(filter.initialEvents(snapshot, at));
  }

  synchronized void startWithReplay(List<HistoryEvent> replay, long after) {
    lastRevision = after;
    for (HistoryEvent e : replay) {
      WatchEvent converted = inScope(e) ? convert(e) : null;
      if (converted != null) {
        pending.add(converted);
      }
    }
    nextBookmark = clock.instant().plus(bookmarkInterval);
  }

  private void failed() {
    ended = true;
    store.unregister(resource, this);
    queue.clear();
  }

  @Override
  public synchronized Optional<WatchEvent> poll(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
    while (true) {
      if (done) {
        return Optional.empty();
      }
      if (closedByConsumer) {
        finish();
        return Optional.empty();
      }
      WatchEvent p = pending.poll();
      if (p != null) {
        note(p);
        if (p instanceof WatchEvent.Failure) {
          finish();
        }
        return Optional.of(p);
      }
      // read the published revision before looking at the queue: every change up to it has
      // been offered by then, so an empty queue means the watch has caught up to it
      long published = store.publishedRevision();
      HistoryEvent e = queue.poll();
      if (e != null) {
        if (e == WAKE_UP) {
          continue;
        }
        WatchEvent converted = convert(e);
        if (converted != null) {
          note(converted);
          return Optional.of(converted);
        }
        continue;
      }
      if (ended) {
        finish();
        return Optional.empty();
      }
      long waitNanos = deadline - System.nanoTime();
      if (allowBookmarks) {
        Instant now = clock.instant();
        if (!now.isBefore(nextBookmark)) {
          nextBookmark = now.plus(bookmarkInterval);
          long at = Math.max(published, lastRevision);
          if (at >= deliverAfter) {
                    lastRevision = at;
            return Optional.of(new WatchEvent.Bookmark(at, false));
          }
        }
        waitNanos = Math.min(waitNanos, Duration.between(now, nextBookmark).toNanos());
      }
      if (waitNanos <= 0) {
        if (deadline - System.nanoTime() <= 0) {
          return Optional.empty();
        }
        continue;
      }
      HistoryEvent waited = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
      if (waited != null && waited != WAKE_UP) {
        WatchEvent converted = convert(waited);
        if (converted != null) {
          note(converted);
          return Optional.of(converted);
        }
      }
    }
  }

  private void note(WatchEvent e) {
    if (e instanceof WatchEvent.ObjectChange c) {
      lastRevision = Math.max(lastRevision, c.resourceVersion());
    } else if (e instanceof WatchEvent.Bookmark b) {
      lastRevision = Math.max(lastRevision, b.resourceVersion());
    }
  }

  private void finish() {
    done = true;
    pending.clear();
    queue.clear();
  }

  @Override
  public boolean isClosed() {
    return closedByConsumer || done;
  }

  @Override
  public void close() {
    if (closedByConsumer) {
      return;
    }
    closedByConsumer = true;
    ended = true;
    store.unregister(resource, this);
    queue.offer(WAKE_UP);
  }

  /** kube's cacheWatcher transitions: a change is seen through the selectors before and after. */
  private WatchEvent convert(HistoryEvent e) {
    InMemoryStore.Version v = e.version;
    // without selectors no object needs decoding here
    boolean all = filter.selectsEverything();
    boolean now = !v.deleted && (all || filter.selects(v.value.object()));
    boolean before = e.previous != null && (all || filter.selects(e.previous.object()));
    WatchEvent.Type type = WatchFilter.transition(before, now).orElse(null);
    if (type == null) {
      return null;
    }
    // a DELETED event carries the last state the watch saw, at the revision it stopped matching
    StoredObject shown = type != WatchEvent.Type.DELETED || v.deleted
        ? v.value
        : StoredObjects.stored(e.previous.key(), e.previous.object(), e.revision);
    return new WatchEvent.ObjectChange(type, shown);
  }
}
