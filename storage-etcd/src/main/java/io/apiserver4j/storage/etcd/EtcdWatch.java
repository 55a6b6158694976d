/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoreErrors;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchFilter;
import io.apiserver4j.storage.WatchOptions;
import io.apiserver4j.storage.etcd.EtcdCalls.Kind;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.watch.WatchResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link Watch} fed by one etcd watch stream (with previous values, so DELETED events carry
 * the last state and selector transitions can be computed).
 *
 * <p>The jetcd listener thread only queues raw key-values (a non-blocking offer into a bounded
 * queue); decoding, selectors and kube's ADDED/DELETED transitions run on the consumer thread in
 * {@link #poll}. The watch ends with a queued terminal item, so the consumer always sees every
 * event buffered before it: a {@link WatchEvent.Failure} when etcd failed or compacted past the
 * watch (jetcd's own resumption is not used, because its resume revision is not exact across a
 * broken stream), or a silent end when the consumer fell {@code bufferSize} changes behind or
 * the store closed.
 *
 * <p>Bookmarks are only ever stamped with a revision the watch has provably caught up to: the
 * start revision, the last change delivered, or a periodic progress notification from etcd
 * (sent by etcd only to watchers that have caught up; etcd's
 * {@code --experimental-watch-progress-notify-interval}, 10 minutes by default). On-demand
 * progress requests are not used: etcd before 3.4.25/3.5.8 may answer them ahead of pending
 * events.
 */
final class EtcdWatch implements Watch, io.etcd.jetcd.Watch.Listener {
  /** What the listener hands to the consumer. */
  private sealed interface Item permits Change, Terminal, WakeUp {}

  private record Change(long revision, KeyValue kv, KeyValue previous, boolean deleted)
      implements Item {}

  /** Ends the watch after everything queued before it; with a failure, that is delivered. */
  private record Terminal(Optional<Status> failure) implements Item {}

  private enum WakeUp implements Item {
    INSTANCE
  }

  private final EtcdStore store;
  private final EtcdKeys keys;
  private final CollectionKey collection;
  private final String watchedKey;
  private final WatchFilter filter;
  private final boolean allowBookmarks;
  private final Duration bookmarkInterval;
  private final InstantSource clock;
  private final int bufferSize;
  private final ArrayBlockingQueue<Item> queue;
  private final AtomicBoolean terminated = new AtomicBoolean();

  private volatile io.etcd.jetcd.Watch.Watcher watcher;
  private volatile boolean closedByConsumer;
  /** Highest revision etcd reported progress to; every change up to it was queued before. */
  private volatile long progressRevision;
  /** Listener side: the last revision queued. */
  private long lastQueued;

  // consumer side, guarded by "this"
  private final ArrayDeque<WatchEvent> pending = new ArrayDeque<>();
  private long lastRevision;
  private Instant nextBookmark;
  private volatile boolean done;

  EtcdWatch(EtcdStore store, EtcdKeys keys, CollectionKey collection, String watchedKey,
      WatchOptions options, long after, int bufferSize, InstantSource clock) {
    this.store = store;
    this.keys = keys;
    this.collection = collection;
    this.watchedKey = watchedKey;
    this.filter = WatchFilter.of(options);
    this.allowBookmarks = options.allowBookmarks();
    this.bookmarkInterval = options.bookmarkInterval();
    this.clock = clock;
    this.bufferSize = bufferSize;
    // room beyond the buffer for the terminal item and a wake-up
    this.queue = new ArrayBlockingQueue<>(bufferSize + 2);
    this.lastQueued = after;
    this.lastRevision = after;
    this.nextBookmark = clock.instant().plus(bookmarkInterval);
  }

  /** Queues the synthetic initial events (before the etcd watch starts). */
  synchronized void initialEvents(List<StoredObject> snapshot, long at) {
    pending.addAll(filter.initialEvents(snapshot, at));
  }

  /** Attaches the etcd watcher; closes it at once if the watch already ended. */
  void attach(io.etcd.jetcd.Watch.Watcher w) {
    this.watcher = w;
    if (terminated.get() || closedByConsumer) {
      closeWatcher();
    }
  }

  // ---------------------------------------------------------------- jetcd listener side

  @Override
  public void onNext(WatchResponse response) {
    if (terminated.get()) {
      return;
    }
    for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
      KeyValue kv = e.getKeyValue();
      boolean deleted = e.getEventType() == io.etcd.jetcd.watch.WatchEvent.EventType.DELETE;
      if (!deleted && e.getEventType() != io.etcd.jetcd.watch.WatchEvent.EventType.PUT) {
        continue;
      }
      if (queue.size() >= bufferSize) {
        // the consumer fell too far behind: it gets what is buffered, then the watch ends
        terminate(Optional.empty());
        return;
      }
      KeyValue prev = e.getPrevKV();
      Change c = new Change(kv.getModRevision(), kv,
          prev == null || prev.getKey().isEmpty() ? null : prev, deleted);
      queue.offer(c);
      lastQueued = c.revision;
    }
    if (response.isProgressNotify()) {
      long rev = response.getHeader().getRevision();
      if (rev > progressRevision) {
        progressRevision = rev;
      }
    }
  }

  @Override
  public void onError(Throwable throwable) {
    if (terminated.get()) {
      return;
    }
    StatusException status;
    Throwable t = EtcdCalls.unwrap(throwable);
    if (t instanceof CompactedException c) {
      store.compactor().noteCompacted(c.getCompactedRevision());
      status = StoreErrors.tooOldResourceVersion(lastQueued, c.getCompactedRevision() - 1);
    } else {
      status = EtcdCalls.translate(t, Kind.READ, "watch " + watchedKey);
    }
    terminate(Optional.of(status.status()));
  }

  @Override
  public void onCompleted() {
    // also called when this side closes the watcher; only an unexpected end is a failure
    if (!terminated.get()) {
      terminate(Optional.of(StatusErrors.serviceUnavailable(
          "etcd is unavailable: the watch stream of " + watchedKey + " ended").status()));
    }
  }

  /** Ends the watch after the queued events (store closing, slow consumer, failure). */
  void terminate(Optional<Status> failure) {
    if (terminated.compareAndSet(false, true)) {
      queue.offer(new Terminal(failure));
      closeWatcher();
      store.unregister(this);
    }
  }

  /** Whether the watch has ended on the producing side (its terminal item is queued). */
  boolean hasEnded() {
    return terminated.get();
  }

  private void closeWatcher() {
    io.etcd.jetcd.Watch.Watcher w = watcher;
    if (w != null) {
      try {
        w.close();
      } catch (RuntimeException e) {
        // the stream is gone already
      }
    }
  }

  // ---------------------------------------------------------------- consumer side

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
        return Optional.of(p);
      }
      // read the progress before looking at the queue: every change up to it was queued first,
      // so an empty queue means the watch has caught up to it
      long progress = progressRevision;
      Item item = queue.poll();
      if (item == null) {
        long waitNanos = deadline - System.nanoTime();
        if (allowBookmarks) {
          Instant now = clock.instant();
          if (!now.isBefore(nextBookmark)) {
            nextBookmark = now.plus(bookmarkInterval);
            WatchEvent.Bookmark b = new WatchEvent.Bookmark(Math.max(progress, lastRevision), false);
            note(b);
            return Optional.of(b);
          }
          waitNanos = Math.min(waitNanos, Duration.between(now, nextBookmark).toNanos());
        }
        if (waitNanos <= 0) {
          if (deadline - System.nanoTime() <= 0) {
            return Optional.empty();
          }
          continue;
        }
        item = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
        if (item == null) {
          continue;
        }
      }
      if (item instanceof Change c) {
        WatchEvent converted = convert(c);
        if (converted != null) {
          note(converted);
          if (converted instanceof WatchEvent.Failure) {
            finish();
          }
          return Optional.of(converted);
        }
      } else if (item instanceof Terminal t) {
        finish();
        return t.failure().map(WatchEvent.Failure::new);
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
    if (!terminated.get()) {
      terminate(Optional.empty());
      queue.clear();
    }
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
    terminate(Optional.empty());
    queue.offer(WakeUp.INSTANCE);
  }

  /**
   * kube's watch transitions: a change is seen through the selectors before and after; one
   * that starts matching is ADDED, one that stops matching is DELETED with the last matching
   * state stamped with the change's revision.
   */
  private WatchEvent convert(Change c) {
    try {
      ObjectKey key = keys.objectKey(collection, EtcdKeys.string(c.kv.getKey()));
      if (!filter.admitsName(key.name())) {
        return null;
      }
      StoredObject now = c.deleted ? null : ObjectCodec.decode(key, c.kv.getValue(), c.revision);
      boolean created = !c.deleted && c.kv.getCreateRevision() == c.kv.getModRevision();
      MapValue before = c.previous == null || created ? null
          : ObjectCodec.decodeObject(key, c.previous.getValue());
      if (!created && before == null) {
        // etcd omits the previous value only if it was compacted away meanwhile; kube fails too
        return new WatchEvent.Failure(StatusErrors.internal("etcd event for " + key + " at revision "
            + c.revision + " lacks the previous value").status());
      }
      boolean nowMatches = now != null && filter.selects(now.object());
      boolean beforeMatched = before != null
          && filter.selects(StoredObjects.withResourceVersion(before, c.revision));
      WatchEvent.Type type = WatchFilter.transition(beforeMatched, nowMatches).orElse(null);
      if (type == null) {
        return null;
      }
      return new WatchEvent.ObjectChange(type, type == WatchEvent.Type.DELETED
          ? StoredObjects.stored(key, before, c.revision) : now);
    } catch (StatusException e) {
      return new WatchEvent.Failure(e.status());
    }
  }
}
