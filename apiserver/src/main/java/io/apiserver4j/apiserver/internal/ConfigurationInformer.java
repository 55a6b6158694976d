package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.core.GoneException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored objects of one resource, always current: listed when started, then followed by a
 * background watch of the store (whoever writes), which resumes from the last revision seen and
 * lists again when that revision was compacted. Writes through this server are also followed
 * synchronously ({@link #follow}), so a request right after such a write sees it.
 *
 * <p>Each state is applied only if newer than what is known of that object: everything up to
 * {@code floor} (the revision the watch or a list has caught up to), or a newer state a request
 * already applied (kept as a tombstone for deletions), so a late watch event or an old list never
 * undoes a newer state. Thread-safe.
 */
final class ConfigurationInformer implements ConfigurationSource {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigurationInformer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  static final String THREAD_PREFIX = "apiserver4j-config-informer-";
  /** An idle watch is polled again after this long; close() ends it at once anyway. */
  private static final Duration POLL = Duration.ofSeconds(30);
  private static final long MIN_BACKOFF_MILLIS = 20;
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  /** An object's state as of a revision; {@code object} null for a deletion. */
  private record Known(MapValue object, long revision) {}

  private final Store store;
  private final CollectionKey collection;
  private final Object lock = new Object();
  /** By namespace/name. Guarded by lock. */
  private final Map<String, Known> known = new HashMap<>();
  /** Every change up to this revision has been applied. Guarded by lock. */
  private long floor;
  private volatile Snapshot snapshot = Snapshot.empty();

  private volatile boolean stopped;
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile Watch current;
  private Thread thread;

  ConfigurationInformer(Store store, CollectionKey collection) {
    this.store = store;
    this.collection = collection;
  }

  @Override
  public Snapshot snapshot() {
    return snapshot;
  }

  /**
   * Lists the objects, then follows changes in the background.
   *
   * @throws io.apiserver4j.core.StatusException if they cannot be listed
   */
  synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    resync();
    thread = new Thread(this::run, THREAD_PREFIX + THREADS.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the background watch and waits for its thread to end. Idempotent. */
  void close() {
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

  /** Applies the stored state of {@code key}, read now (after a write through this server). */
  void refresh(ObjectKey key) {
    Optional<StoredObject> stored = store.get(key);
    if (stored.isPresent()) {
      follow(key.namespace(), key.name(), stored.get().object(),
          stored.get().resourceVersion());
    } else {
      // deleted since: the list tells at which revision, at the latest
      resync();
    }
  }

  /** Applies the deletion of {@code key} at {@code revision}. */
  void deleted(ObjectKey key, long revision) {
    if (revision > 0) {
      follow(key.namespace(), key.name(), null, revision);
    } else {
      resync();
    }
  }

  private void follow(String namespace, String name, MapValue object, long revision) {
    String k = key(namespace, name);
    synchronized (lock) {
      Known before = known.get(k);
      if (revision <= floor || (before != null && revision <= before.revision())) {
        return;
      }
      known.put(k, new Known(object, revision));
      publish();
    }
  }

  /** Lists the objects and applies the state they show. */
  void resync() {
    ListResult list = store.list(collection, ListOptions.all());
    long at = list.resourceVersion();
    synchronized (lock) {
      if (at <= floor) {
        return;
      }
      Map<String, StoredObject> listed = new HashMap<>();
      for (StoredObject o : list.items()) {
        listed.put(key(o.key().namespace(), o.key().name()), o);
      }
      known.entrySet().removeIf(e -> e.getValue().revision() <= at
          && !listed.containsKey(e.getKey()));
      for (Map.Entry<String, StoredObject> e : listed.entrySet()) {
        Known before = known.get(e.getKey());
        if (before == null || before.revision() <= at) {
          known.put(e.getKey(), new Known(e.getValue().object(),
              e.getValue().resourceVersion()));
        }
      }
      advance(at);
      publish();
    }
  }

  /**
   * Waits until every change up to {@code revision} is applied (the watch got there, or a list
   * taken after the store did).
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept)
   */
  boolean awaitRevision(long revision, Duration timeout) {
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

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
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
        if (!stopped) {
          LOG.warn("watching {} failed; retrying", collection, e);
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
            LOG.warn("listing {} failed; retrying", collection, e);
          }
        }
      } else if (delivered && end == End.CLOSED) {
        // a watch that made progress and ended: resume at once
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
        long rv = change.resourceVersion();
        ObjectKey k = change.object().key();
        synchronized (lock) {
          if (rv > floor) {
            Known before = known.get(key(k.namespace(), k.name()));
            if (before == null || rv > before.revision()) {
              known.put(key(k.namespace(), k.name()), new Known(
                  change.type() == WatchEvent.Type.DELETED ? null : change.object().object(),
                  rv));
            }
            advance(rv);
            publish();
          }
        }
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

  // --- under lock ------------------------------------------------------------------------------

  private void advance(long revision) {
    if (revision > floor) {
      floor = revision;
      lock.notifyAll();
      // tombstones at or below the floor are no longer needed to reject older states
      known.values().removeIf(k -> k.object() == null && k.revision() <= revision);
    }
  }

  /** Publishes a new snapshot if the objects differ from the current one. */
  private void publish() {
    TreeMap<String, MapValue> sorted = new TreeMap<>();
    for (Map.Entry<String, Known> e : known.entrySet()) {
      if (e.getValue().object() != null) {
        sorted.put(e.getKey(), e.getValue().object());
      }
    }
    List<MapValue> objects = new ArrayList<>(sorted.values());
    Snapshot before = snapshot;
    if (!objects.equals(before.objects())) {
      snapshot = new Snapshot(floor, objects);
    }
  }
}
