/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.informer;

import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informer mechanism (kube's list + watch + relist): the objects of one collection are listed
 * when started, then followed by a background watch of the store (whoever writes), which resumes
 * from the last revision seen, lists again when that revision was compacted (410) and backs off
 * while the store fails. Writes through this server are also followed synchronously
 * ({@link #follow}), so a request right after such a write sees it.
 *
 * <p>Each state is handed to the {@link Target} only if newer than what is known of that object:
 * everything up to {@code floor} (the revision the watch or a list has caught up to), or a newer
 * state a request already applied, so a late watch event or an old list never undoes a newer
 * state. Thread-safe; the target is called under the informer's lock, one call at a time.
 */
public final class StoreInformer {
  private static final Logger LOG = LoggerFactory.getLogger(StoreInformer.class);
  /** An idle watch is polled again after this long; close() ends it at once anyway. */
  private static final Duration POLL = Duration.ofSeconds(30);
  private static final long MIN_BACKOFF_MILLIS = 20;
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final long MAX_AWAIT_PAUSE_MILLIS = 200;
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  /** What the informer keeps current. Called under the informer's lock. */
  public interface Target {
    /** Applies the state of the object at {@code key} ("namespace/name"); null: deleted. */
    public void apply(String key, MapValue object);

    /** The keys of the objects the target holds now (a relist removes those not listed). */
    public Set<String> keys();

    /** Called after a follow, a list or a watch event was applied, with the new floor. */
    public default void applied(long floor) {}
  }

  private final Store store;
  private final CollectionKey collection;
  private final String what;
  private final String threadPrefix;
  private final AtomicInteger threads;
  private final Target target;

  private final Object lock = new Object();
  /** By key: states applied by requests ahead of {@code floor}. Guarded by lock. */
  private final Map<String, Long> knownAsOf = new HashMap<>();
  /** Every change up to this revision has been applied. Guarded by lock. */
  private long floor;

  private volatile boolean stopped;
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile Watch current;
  private Thread thread;

  /**
   * @param what the followed objects in log messages
   * @param threads numbers the threads named {@code threadPrefix + n}
   */
  public StoreInformer(Store store, CollectionKey collection, String what, String threadPrefix,
      AtomicInteger threads, Target target) {
    this.store = store;
    this.collection = collection;
    this.what = what;
    this.threadPrefix = threadPrefix;
    this.threads = threads;
    this.target = target;
  }

  public Store store() {
    return store;
  }

  public static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  /**
   * Lists the objects, then follows changes in the background.
   *
   * @throws io.apiserver4j.core.errors.StatusException if they cannot be listed
   */
  public synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    resync();
    thread = new Thread(this::run, threadPrefix + threads.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the background watch and waits for its thread to end. Idempotent. */
  public void close() {
    stopped = true;
    stop.countDown();
    Watch w = current;
    if (w != null) {
      w.close();
    }
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t == null || t == Thread.currentThread()) {
      return;
    }
    try {
      t.join(STOP_WAIT.toMillis());
      if (t.isAlive()) {
        // stuck in a store call that does not end on its own: interrupting is the last resort
        t.interrupt();
        t.join(STOP_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Applies the state of {@code key} as of revision {@code asOf} (the revision it was read at,
   * or was deleted at when {@code object} is null) unless a newer state is known.
   */
  public void follow(String key, MapValue object, long asOf) {
    synchronized (lock) {
      if (asOf <= Math.max(floor, knownAsOf.getOrDefault(key, 0L))) {
        return;
      }
      knownAsOf.put(key, asOf);
      target.apply(key, object);
      target.applied(floor);
    }
  }

  /**
   * Lists the objects and applies the state they show (an informer's relist).
   *
   * @return the revision of the list
   */
  public long resync() {
    ListResult list = store.list(collection, ListOptions.all());
    long at = list.resourceVersion();
    synchronized (lock) {
      if (at <= floor) {
        return at;
      }
      Map<String, MapValue> listed = new LinkedHashMap<>();
      for (StoredObject o : list.items()) {
        listed.put(key(o.key().namespace(), o.key().name()), o.object());
      }
      Set<String> keys = new LinkedHashSet<>(listed.keySet());
      keys.addAll(target.keys());
      for (String k : keys) {
        if (knownAsOf.getOrDefault(k, 0L) <= at) {
          target.apply(k, listed.get(k));
        }
      }
      advance(at);
      target.applied(floor);
      return at;
    }
  }

  /**
   * Waits until the watch (or a list) has applied every change up to {@code revision}.
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept) or stopped
   */
  public boolean awaitWatched(long revision, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (floor < revision) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0 || stopped) {
          return false;
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Waits until every change up to {@code revision} is applied. When the watch has not got that
   * far yet but the store has, the objects are listed at once rather than waiting for the watch
   * (which may see no event of this collection, and so no progress, for a long time).
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept) or stopped before
   */
  public boolean await(long revision, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 1;
    while (true) {
      synchronized (lock) {
        if (floor >= revision) {
          return true;
        }
      }
      if (stopped) {
        return false;
      }
      try {
        if (store.currentRevision() >= revision) {
          // a list read now is at least at the store's revision
          resync();
          synchronized (lock) {
            return floor >= revision;
          }
        }
      } catch (RuntimeException e) {
        // the store is failing: the watch may still get there, or a later attempt
        LOG.warn("reading {} failed; waiting for the watch", what, e);
      }
      synchronized (lock) {
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (floor >= revision) {
          return true;
        }
        if (remaining <= 0) {
          return false;
        }
        try {
          lock.wait(Math.max(1, Math.min(remaining, pause)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return floor >= revision;
        }
      }
      pause = Math.min(pause * 2, MAX_AWAIT_PAUSE_MILLIS);
    }
  }

  // --- the background watch --------------------------------------------------------------------

  private enum End { CLOSED, FAILED, EXPIRED }

  private void run() {
    long backoff = MIN_BACKOFF_MILLIS;
    while (!stopped) {
      long from;
      synchronized (lock) {
        from = floor;
      }
      End end;
      boolean delivered = false;
      try {
        Watch w = store.watch(collection, WatchOptions.builder().resourceVersion(from)
            .initialEvents(InitialEvents.SKIP).allowBookmarks(true).build());
        current = w;
        try {
          if (stopped) {
            return;
          }
          int[] count = new int[1];
          end = consume(w, count);
          delivered = count[0] > 0;
        } finally {
          current = null;
          w.close();
        }
      } catch (GoneException e) {
        end = End.EXPIRED;
      } catch (RuntimeException e) {
        // the store is unavailable or closed: try again later
        if (!stopped) {
          LOG.warn("watching {} failed; retrying", what, e);
        }
        end = End.FAILED;
      }
      if (stopped) {
        return;
      }
      if (end == End.EXPIRED) {
        try {
          resync();
          backoff = MIN_BACKOFF_MILLIS;
          continue;
        } catch (RuntimeException e) {
          if (!stopped) {
            LOG.warn("listing {} failed; retrying", what, e);
          }
          end = End.FAILED;
        }
      }
      if (delivered && end == End.CLOSED) {
        // a watch that made progress and ended (slow consumer, lost connection): resume now
        backoff = MIN_BACKOFF_MILLIS;
        continue;
      }
      try {
        if (stop.await(backoff, TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
    }
  }

  /** Applies the watch's events until it ends or the informer stops. */
  private End consume(Watch w, int[] delivered) {
    while (!stopped) {
      Optional<WatchEvent> next;
      try {
        next = w.poll(POLL);
      } catch (InterruptedException e) {
        // only close() interrupts, as a last resort
        return End.CLOSED;
      }
      if (next.isEmpty()) {
        if (w.isClosed()) {
          return End.CLOSED;
        }
        continue;
      }
      WatchEvent event = next.get();
      if (event instanceof WatchEvent.ObjectChange change) {
        delivered[0]++;
        onChange(change);
      } else if (event instanceof WatchEvent.Bookmark bookmark) {
        delivered[0]++;
        synchronized (lock) {
          advance(bookmark.resourceVersion());
        }
      } else if (event instanceof WatchEvent.Failure failure) {
        return failure.status().code() == 410 ? End.EXPIRED : End.FAILED;
      }
    }
    return End.CLOSED;
  }

  private void onChange(WatchEvent.ObjectChange change) {
    long rv = change.resourceVersion();
    String k = key(change.object().key().namespace(), change.object().key().name());
    MapValue object = change.type() == WatchEvent.Type.DELETED ? null : change.object().object();
    synchronized (lock) {
      if (rv <= floor) {
        return;
      }
      if (rv > knownAsOf.getOrDefault(k, 0L)) {
        target.apply(k, object);
      }
      advance(rv);
      target.applied(floor);
    }
  }

  /** Under lock. */
  private void advance(long revision) {
    if (revision > floor) {
      floor = revision;
      // states at or below the floor no longer need their revision to reject older ones
      knownAsOf.values().removeIf(v -> v <= revision);
      lock.notifyAll();
    }
  }
}
