package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves custom resources from the CustomResourceDefinitions in storage, whoever wrote them: what
 * kube-apiserver's apiextensions server does with its CRD informer. The stored CRDs are listed
 * when the server starts; a background watch then follows every change, resuming from the last
 * revision it saw when the watch ends and listing again when that revision was compacted (410).
 * A CRD is served while it is {@code Established}, with its accepted names, and is marked
 * terminating (no new objects) once it is being deleted.
 *
 * <p>Writes through this server are followed synchronously as well ({@link #follow}), so a
 * request right after a CRD write through this server sees its effect. Each state is applied
 * only if it is newer than what is known of that CRD: everything up to {@link #floor} (the
 * revision the watch or a list has caught up to), or a newer state a request already applied.
 * Hence the watch's late copy of a request's own write, or an old list, never undoes it.
 *
 * <p>Never writes: CRD status and the deletion of a deleted CRD's objects stay with the server
 * whose request caused them ({@link CrdController}), so they happen once.
 */
final class CrdInformer {
  private static final Logger LOG = LoggerFactory.getLogger(CrdInformer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  static final String THREAD_PREFIX = "apiserver4j-crd-informer-";
  /** An idle watch is polled again after this long; close() wakes it at once anyway. */
  private static final Duration POLL = Duration.ofSeconds(30);
  private static final long MIN_BACKOFF_MILLIS = 20;
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final long MAX_AWAIT_PAUSE_MILLIS = 200;
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  /** What one CRD makes this server serve. */
  private record Served(GroupResource resource, Value shape, boolean terminating) {}

  private final Store store;
  private final Registry registry;
  private final CollectionKey crds = CollectionKey.all(CrdController.CRD_RESOURCE.group(),
      CrdController.CRD_RESOURCE.resource());

  private final Object lock = new Object();
  /** By CRD name: the CRDs currently served. Guarded by lock. */
  private final Map<String, Served> served = new HashMap<>();
  /** By CRD name: states applied by requests ahead of {@link #floor}. Guarded by lock. */
  private final Map<String, Long> knownAsOf = new HashMap<>();
  /** Every CRD change up to this revision has been applied. Guarded by lock. */
  private long floor;
  private volatile Set<GroupResource> terminating = Set.of();

  private volatile boolean stopped;
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile Watch current;
  private Thread thread;

  CrdInformer(Store store, Registry registry) {
    this.store = store;
    this.registry = registry;
  }

  /**
   * Serves the established CRDs in storage, then starts following changes in the background.
   *
   * @throws io.apiserver4j.core.StatusException if the CRDs cannot be listed
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

  /** Whether the CRD of {@code resource} is being deleted, so that no new objects are allowed. */
  boolean terminating(GroupResource resource) {
    return terminating.contains(resource);
  }

  /**
   * Applies the state of CRD {@code name} as of revision {@code asOf} (the revision it was read
   * at, or was deleted at when {@code crd} is null) unless a newer state is known.
   */
  void follow(String name, MapValue crd, long asOf) {
    synchronized (lock) {
      if (asOf <= Math.max(floor, knownAsOf.getOrDefault(name, 0L))) {
        return;
      }
      knownAsOf.put(name, asOf);
      apply(name, crd);
    }
  }

  /**
   * Lists the CRDs and applies the state they show (what an informer's relist does).
   *
   * @return the revision of the list
   */
  long resync() {
    ListResult list = store.list(crds, ListOptions.all());
    long at = list.resourceVersion();
    synchronized (lock) {
      if (at <= floor) {
        return at;
      }
      Map<String, MapValue> listed = new LinkedHashMap<>();
      for (StoredObject o : list.items()) {
        listed.put(o.key().name(), o.object());
      }
      Set<String> names = new LinkedHashSet<>(listed.keySet());
      names.addAll(served.keySet());
      for (String name : names) {
        if (knownAsOf.getOrDefault(name, 0L) <= at) {
          apply(name, listed.get(name));
        }
      }
      advance(at);
      return at;
    }
  }

  /**
   * Waits until every CRD change up to {@code revision} is applied. When the watch has not got
   * that far yet but the store has, the CRDs are listed at once rather than waiting for the
   * watch (which may see no CRD event, and so no progress, for a long time).
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept) or stopped before
   */
  boolean await(long revision, Duration timeout) {
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
          return caughtUp(revision);
        }
      } catch (RuntimeException e) {
        // the store is failing: the watch may still get there, or a later attempt
        LOG.warn("reading CustomResourceDefinitions failed; waiting for the watch", e);
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

  private boolean caughtUp(long revision) {
    synchronized (lock) {
      return floor >= revision;
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
        Watch w = store.watch(crds, WatchOptions.builder().resourceVersion(from)
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
      } catch (io.apiserver4j.core.GoneException e) {
        end = End.EXPIRED;
      } catch (RuntimeException e) {
        // the store is unavailable or closed: try again later
        if (!stopped) {
          LOG.warn("watching CustomResourceDefinitions failed; retrying", e);
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
            LOG.warn("listing CustomResourceDefinitions failed; retrying", e);
          }
          end = End.FAILED;
        }
      }
      if (delivered && end == End.CLOSED) {
        // a watch that made progress and ended (slow consumer, lost connection): resume now
        backoff = MIN_BACKOFF_MILLIS;
        continue;
      }
      if (!pause(backoff)) {
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
    String name = change.object().key().name();
    MapValue crd = change.type() == WatchEvent.Type.DELETED ? null : change.object().object();
    synchronized (lock) {
      if (rv <= floor) {
        return;
      }
      if (rv > knownAsOf.getOrDefault(name, 0L)) {
        apply(name, crd);
      }
      advance(rv);
    }
  }

  /** Waits {@code millis} unless stopped first; false if stopped. */
  private boolean pause(long millis) {
    try {
      return !stop.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      return false;
    }
  }

  // --- applying a state, under lock ------------------------------------------------------------

  private void advance(long revision) {
    if (revision > floor) {
      floor = revision;
      knownAsOf.values().removeIf(v -> v <= revision);
      lock.notifyAll();
    }
  }

  /** Makes the registry serve what {@code crd} (null: a deleted CRD) asks for. */
  private void apply(String name, MapValue crd) {
    Served before = served.get(name);
    Served after;
    try {
      after = crd == null ? null : servedBy(crd);
    } catch (RuntimeException e) {
      // not a CRD this server can make sense of: it serves nothing
      LOG.warn("CustomResourceDefinition {} cannot be served", name, e);
      after = null;
    }
    if (before != null && (after == null || !before.resource().equals(after.resource()))) {
      setServed(before.resource(), List.of());
    }
    if (after != null && (before == null || !before.resource().equals(after.resource())
        || !before.shape().equals(after.shape()))) {
      List<ResourceDefinition> definitions;
      try {
        definitions = CrdSupport.definitions(CrdSupport.servedView(crd));
      } catch (RuntimeException e) {
        // a CRD this server cannot derive definitions from is not served
        LOG.warn("CustomResourceDefinition {} cannot be served", name, e);
        definitions = null;
      }
      if (definitions == null || !setServed(after.resource(), definitions)) {
        setServed(after.resource(), List.of());
        after = null;
      }
    }
    if (after == null) {
      served.remove(name);
    } else {
      served.put(name, after);
    }
    Set<GroupResource> t = new HashSet<>();
    for (Served s : served.values()) {
      if (s.terminating()) {
        t.add(s.resource());
      }
    }
    if (!t.equals(terminating)) {
      terminating = Set.copyOf(t);
    }
  }

  /**
   * What an established CRD serves, null for one that is not. kube serves a CRD's resources once
   * it is {@code Established} and keeps them while it is terminating.
   */
  private static Served servedBy(MapValue crd) {
    if (!CrdSupport.conditionTrue(crd, "Established")) {
      return null;
    }
    MapValue view = CrdSupport.servedView(crd);
    GroupResource resource = new GroupResource(CrdSupport.str(view, "spec", "group"),
        CrdSupport.str(view, "spec", "names", "plural"));
    if (resource.resource().isEmpty()) {
      return null;
    }
    Value spec = view.getOrNull("spec");
    return new Served(resource, spec == null ? Value.nullValue() : spec,
        CrdSupport.terminating(crd));
  }

  /**
   * Serves {@code definitions} as group/resource {@code resource}, unless definitions that did
   * not come from a CRD (built-in or given to the builder) serve it.
   *
   * @return false if the definitions clash with other served resources, or are refused
   */
  private boolean setServed(GroupResource resource, List<ResourceDefinition> definitions) {
    List<ResourceDefinition> existing = registry.versionsOf(resource);
    for (ResourceDefinition d : existing) {
      if (!d.customResource()) {
        return false;
      }
    }
    if (existing.isEmpty() && definitions.isEmpty()) {
      return true;
    }
    try {
      registry.replaceGroupResource(resource, definitions);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
