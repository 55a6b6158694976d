/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Values;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The default {@link Store}: an in-process, multi-version store with etcd's model.
 *
 * <p>Each key keeps a chain of versions; a single lock serializes writes (the critical section
 * only links a version, appends a history event and hands it to the watches of that resource),
 * while reads never lock: they resolve every key to its newest version at or below the read
 * revision. The last {@link Builder#historyLimit} changes are retained; older ones are compacted
 * away as etcd's compaction does, so watches and continue tokens can reach back that far and get
 * 410 Expired beyond it. {@link #compact(long)} compacts explicitly.
 *
 * <p>Objects are kept as compact JSON (a tree of small Java objects costs several times its JSON
 * on the heap): a write encodes once, outside the lock; a read decodes, unless the tree written
 * or last decoded is still held by someone (it is weakly kept); a list item is written from the
 * bytes ({@link StoredObject#writeJson}). As kube's storage, an update that encodes to the stored
 * bytes writes nothing.
 *
 * <p>Thread-safe. Time (for bookmarks only) comes from the injected {@link InstantSource}.
 */
public final class InMemoryStore implements Store {
  /** Default number of retained changes. */
  public static final int DEFAULT_HISTORY_LIMIT = 10_000;
  /** Default bound on the heap the retained changes keep alive (estimated): 128 MiB. */
  public static final long DEFAULT_HISTORY_BYTES = 128L << 20;
  /** Default age bound of retained changes: kube-apiserver's etcd compaction interval. */
  public static final java.time.Duration DEFAULT_HISTORY_AGE = java.time.Duration.ofMinutes(5);
  /** Default per-watch buffer, in changes of the watched resource. */
  public static final int DEFAULT_WATCH_BUFFER = 1024;
  /** How long a read of a future resourceVersion waits for it (kube's watch cache: 3 s). */
  public static final java.time.Duration FRESHNESS_TIMEOUT = java.time.Duration.ofSeconds(3);

  /** What an object costs beside its encoding: its version, state and key (estimated). */
  private static final long VERSION_OVERHEAD = 160;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ReentrantLock freshnessLock = new ReentrantLock();
  private final java.util.concurrent.locks.Condition revisionAdvanced = freshnessLock.newCondition();
  private final java.util.concurrent.atomic.AtomicInteger freshnessWaiters =
      new java.util.concurrent.atomic.AtomicInteger();
  private final ConcurrentHashMap<ResourceId, Resource> resources = new ConcurrentHashMap<>();
  private final HistoryEvent[] ring;
  private final long historyBytes;
  private final long historyAgeMillis;
  /** Estimated heap of the retained changes; guarded by the write lock. */
  private long retainedBytes;
  private final int watchBufferSize;
  private final InstantSource clock;

  /** The latest committed revision; written before the write's event is dispatched. */
  private volatile long revision = 1;
  /** Reads at revisions below this may miss versions; watches must start at or after it. */
  private volatile long compactedRevision = 1;
  private volatile boolean closed;

  private InMemoryStore(Builder b) {
    this.ring = new HistoryEvent[b.historyLimit];
    this.historyBytes = b.historyBytes;
    this.historyAgeMillis = b.historyAge.toMillis();
    this.watchBufferSize = b.watchBufferSize;
    this.clock = b.clock;
  }

  /**
   * Waits until the store reaches revision {@code wanted}, at most {@link #FRESHNESS_TIMEOUT}, as
   * kube-apiserver's watch cache blocks a read of a resourceVersion it has not seen yet.
   *
   * @return the current revision, at least {@code wanted}
   * @throws io.apiserver4j.core.errors.TimeoutException 504 {@code Too large resource version} (retry after 1 s) when the
   *     store did not get there in time
   */
  private long awaitRevision(long wanted) {
    long current = revision;
    if (wanted <= current) {
      return current;
    }
    long deadline = System.nanoTime() + FRESHNESS_TIMEOUT.toNanos();
    freshnessLock.lock();
    freshnessWaiters.incrementAndGet();
    try {
      while ((current = revision) < wanted) {
        checkOpen();
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw StoreErrors.tooLargeResourceVersion(wanted, current, 1);
        }
        revisionAdvanced.awaitNanos(left);
      }
      return current;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StoreErrors.tooLargeResourceVersion(wanted, revision, 1);
    } finally {
      freshnessWaiters.decrementAndGet();
      freshnessLock.unlock();
    }
  }

  /** How many reads are waiting for a future revision (for tests that order a write after). */
  int freshnessWaiters() {
    return freshnessWaiters.get();
  }

  private void signalFreshness() {
    if (freshnessWaiters.get() > 0) {
      freshnessLock.lock();
      try {
        revisionAdvanced.signalAll();
      } finally {
        freshnessLock.unlock();
      }
    }
  }

  /**
   * A store with default settings and the system clock.
   *
   * @return a new, empty store
   */
  public static InMemoryStore create() {
    return builder().build();
  }

  /**
   * A builder for a store with other history limits, watch buffers or clock.
   *
   * @return a new builder with the default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<StoredObject> get(ObjectKey key) {
    requireNonNull(key, "key");
    checkOpen();
    // resolve at the published revision: a version linked by a write that has not yet been
    // published must not be seen here and then be missing from a list that follows
    long at = revision;
    Resource r = resources.get(ResourceId.of(key));
    if (r == null) {
      return Optional.empty();
    }
    Version v = r.objects.get(key.relativeKey());
    return v == null ? Optional.empty() : Optional.ofNullable(visibleAt(v, at));
  }

  @Override
  public long currentRevision() {
    return revision;
  }

  /**
   * The oldest revision that can still be read or watched from.
   *
   * @return the compacted revision; older reads and watches get 410 Expired
   */
  public long compactedRevision() {
    return compactedRevision;
  }

  @Override
  public ListResult list(CollectionKey collection, ListOptions options) {
    requireNonNull(collection, "collection");
    requireNonNull(options, "options");
    checkOpen();
    Optional<ContinueToken> token = options.decodedContinueToken();
    if (token.isPresent()) {
      return listContinued(collection, options, token.get());
    }
    while (true) {
      long current = revision;
      long at;
      switch (options.resourceVersionMatch()) {
        case MOST_RECENT:
          at = current;
          break;
        case NOT_OLDER_THAN:
          at = awaitRevision(options.resourceVersion());
          break;
        case EXACT:
          awaitRevision(options.resourceVersion());
          at = options.resourceVersion();
          if (at < compactedRevision) {
            throw StoreErrors.expired(StoreErrors.LIST_EXPIRED_MESSAGE);
          }
          break;
        default:
          throw new AssertionError(options.resourceVersionMatch());
      }
      ListResult result = readPage(collection, options, at, collection.relativePrefix());
      if (at >= compactedRevision) {
        return result;
      }
      if (options.resourceVersionMatch() == ResourceVersionMatch.EXACT) {
        throw StoreErrors.expired(StoreErrors.LIST_EXPIRED_MESSAGE);
      }
      // so many writes happened while reading that the snapshot was compacted: read again
    }
  }

  private ListResult listContinued(CollectionKey collection, ListOptions options,
      ContinueToken decoded) {
    long current = revision;
    long at = decoded.resourceVersion() < 0 ? current : decoded.resourceVersion();
    if (at > current) {
      throw StoreErrors.tooLargeResourceVersion(at, current);
    }
    String start = decoded.relativeStartKey(collection);
    if (at >= compactedRevision) {
      ListResult result = readPage(collection, options, at, start);
      if (at >= compactedRevision) {
        return result;
      }
    }
    throw StoreErrors.expired(StoreErrors.INCONSISTENT_CONTINUE_MESSAGE);
  }

  /**
   * Reads one page at revision {@code at}, starting at relative key {@code start}. The caller
   * re-checks {@link #compactedRevision} afterwards: if it passed {@code at}, the page may be
   * incomplete.
   */
  private ListResult readPage(CollectionKey collection, ListOptions options, long at, String start) {
    Resource r = resources.get(ResourceId.of(collection));
    if (r == null) {
      return new ListResult(List.of(), at, Optional.empty(), Optional.empty());
    }
    NavigableMap<String, Version> range = range(r, collection, start);
    long limit = options.limit();
    boolean everything = options.selectsEverything();
    LabelSelector labels = options.labelSelector();
    FieldSelector fields = options.fieldSelector();
    List<StoredObject> items = new ArrayList<>();
    Iterator<Version> it = range.values().iterator();
    StoredObject last = null;
    boolean hasMore = false;
    while (it.hasNext()) {
      StoredObject value = visibleAt(it.next(), at);
      if (value == null) {
        continue;
      }
      if (limit > 0 && items.size() >= limit) {
        hasMore = true;
        break;
      }
      last = value;
      if (everything || (labels.matches(value.object()) && fields.matches(value.object()))) {
        items.add(value);
      }
    }
    if (!hasMore) {
      return new ListResult(items, at, Optional.empty(), Optional.empty());
    }
    String next = ContinueToken.after(collection, last.key(), at).encode();
    if (!everything) {
      return new ListResult(items, at, Optional.of(next), Optional.empty());
    }
    long remaining = 1; // the live key that revealed there is more
    while (it.hasNext()) {
      if (visibleAt(it.next(), at) != null) {
        remaining++;
      }
    }
    return new ListResult(items, at, Optional.of(next), Optional.of(remaining));
  }

  private static NavigableMap<String, Version> range(Resource r, CollectionKey c, String start) {
    String prefix = c.relativePrefix();
    NavigableMap<String, Version> range = prefix.isEmpty()
        ? r.objects
        : r.objects.subMap(prefix, true, prefix.substring(0, prefix.length() - 1) + '0', false);
    if (Values.compareStrings(start, prefix) > 0) {
      range = range.tailMap(start, true);
    }
    return range;
  }

  /** The live state of a key at {@code at}, or null if it did not exist then. */
  private static StoredObject visibleAt(Version head, long at) {
    Version v = head;
    while (v != null && v.revision > at) {
      v = v.prev;
    }
    return v == null || v.deleted ? null : v.value;
  }

  // ---------------------------------------------------------------- writes

  @Override
  public StoredObject create(ObjectKey key, MapValue object) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    StoredObjects.requireNoResourceVersion(object);
    Resource r = resource(ResourceId.of(key));
    String k = key.relativeKey();
    CompactObject compact = encode(object);
    long bytes = compact.heapBytes() + VERSION_OVERHEAD;
    StoredObject stored;
    writeLock.lock();
    try {
      checkOpen();
      Version head = r.objects.get(k);
      if (head != null && !head.deleted) {
        throw StoreErrors.alreadyExists(key);
      }
      long rev = revision + 1;
      stored = StoredObject.compact(key, compact, rev, null);
      Version v = new Version(rev, stored, false, head);
      r.objects.put(k, v);
      commit(r, new HistoryEvent(rev, v, null, bytes, clock.millis()));
    } finally {
      writeLock.unlock();
    }
    return remembered(stored, object);
  }

  /** The object in its stored form; checks first that it can be stored at all. */
  private static CompactObject encode(MapValue object) {
    StoredObjects.requireEncodable(object);
    return CompactObject.encode(StoredObjects.withResourceVersion(object, ""));
  }

  /**
   * The written state with the writer's tree as its decoded object, so that reading it back
   * soon after needs no decoding (the tree is dropped when nobody holds it).
   */
  private static StoredObject remembered(StoredObject stored, MapValue written) {
    stored.remember(StoredObjects.withResourceVersion(written, stored.resourceVersion()));
    return stored;
  }

  @Override
  public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    requireNonNull(preconditions, "preconditions");
    Preconditions.requireValidExpectedRevision(expectedResourceVersion);
    Resource r = resource(ResourceId.of(key));
    String k = key.relativeKey();
    // the (possibly large) equality check and the encoding run before taking the lock, against
    // the state seen then; a no-op needs no encoding
    CompactObject compact = null;
    while (true) {
      Version seen = r.objects.get(k);
      boolean live = seen != null && !seen.deleted;
      boolean unchangedFromSeen = live
          && StoredObjects.sameIgnoringResourceVersion(seen.value, object);
      if (!unchangedFromSeen) {
        if (compact == null) {
          compact = encode(object);
        }
        unchangedFromSeen = live && sameBytes(seen.value, compact);
      }
      StoredObject stored;
      writeLock.lock();
      try {
        checkOpen();
        Version head = r.objects.get(k);
        if (head == null || head.deleted) {
          throw StoreErrors.notFound(key);
        }
        preconditions.checkUpdate(head.value, expectedResourceVersion);
        if (head != seen && compact == null) {
          continue; // changed meanwhile: compare and encode again, outside the lock
        }
        boolean unchanged = head == seen
            ? unchangedFromSeen
            : StoredObjects.sameIgnoringResourceVersion(head.value, object)
                || sameBytes(head.value, compact);
        if (unchanged) {
          return head.value;
        }
        long rev = revision + 1;
        stored = StoredObject.compact(key, compact, rev, null);
        Version v = new Version(rev, stored, false, head);
        r.objects.put(k, v);
        commit(r, new HistoryEvent(rev, v, head.value, compact.heapBytes() + VERSION_OVERHEAD,
            clock.millis()));
      } finally {
        writeLock.unlock();
      }
      return remembered(stored, object);
    }
  }

  /** Whether {@code current} has this encoding: kube's storage skips a write of equal bytes. */
  private static boolean sameBytes(StoredObject current, CompactObject encoded) {
    CompactObject c = current.compactForm();
    return c != null && c.sameBytes(encoded);
  }

  @Override
  public StoredObject delete(ObjectKey key, Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(preconditions, "preconditions");
    Resource r = resources.get(ResourceId.of(key));
    if (r == null) {
      checkOpen();
      throw StoreErrors.notFound(key);
    }
    String k = key.relativeKey();
    StoredObject ended;
    StoredObject last;
    writeLock.lock();
    try {
      checkOpen();
      Version head = r.objects.get(k);
      if (head == null || head.deleted) {
        throw StoreErrors.notFound(key);
      }
      preconditions.check(head.value);
      long rev = revision + 1;
      // the tombstone shares the encoding of the state it ends, at the deletion revision
      CompactObject encoded = head.value.compactForm();
      StoredObject state = encoded != null
          ? StoredObject.compact(key, encoded, rev, null)
          : StoredObjects.stored(key, head.value.object(), rev);
      Version tombstone = new Version(rev, state, true, head);
      r.objects.put(k, tombstone);
      // a tombstone shares its object with the state it ends
      commit(r, new HistoryEvent(rev, tombstone, head.value, HeapEstimate.SHARED,
          clock.millis()));
      ended = tombstone.value;
      last = head.value;
    } finally {
      writeLock.unlock();
    }
    MapValue tree = last.objectIfDecoded();
    return tree == null || ended.compactForm() == null ? ended : remembered(ended, tree);
  }

  /** Records and publishes a write; the caller holds the lock and has linked the version. */
  private void commit(Resource r, HistoryEvent event) {
    int slot = (int) (event.revision % ring.length);
    HistoryEvent evicted = ring[slot];
    if (evicted != null) {
      compactOne(evicted);
    }
    ring[slot] = event;
    retainedBytes += event.bytes;
    // visible to reads before any watcher hears of it, as etcd's watch follows its commit: a
    // controller that reads what an event names must find it (watches register under the lock)
    revision = event.revision;
    for (InMemoryWatch w : r.watchers) {
      w.offer(event);
    }
    signalFreshness();
    trimHistory(event);
  }

  /**
   * Compacts the oldest changes while the retained ones exceed the byte bound or are older than
   * the age bound, keeping {@code newest}. Caller holds the lock.
   */
  private void trimHistory(HistoryEvent newest) {
    long oldestAllowed = newest.committedMillis - historyAgeMillis;
    while (true) {
      long next = compactedRevision + 1;
      if (next >= newest.revision) {
        return;
      }
      HistoryEvent oldest = ring[(int) (next % ring.length)];
      if (oldest == null || oldest.revision != next) {
        // already compacted explicitly: just move the bound
        compactedRevision = next;
        continue;
      }
      if (retainedBytes <= historyBytes && oldest.committedMillis >= oldestAllowed) {
        return;
      }
      compactOne(oldest);
    }
  }

  /** Estimated heap of the retained changes (for tests of the bounds). */
  long retainedHistoryBytes() {
    writeLock.lock();
    try {
      return retainedBytes;
    } finally {
      writeLock.unlock();
    }
  }

  /** Drops what only readers below {@code event.revision} could need. Caller holds the lock. */
  private void compactOne(HistoryEvent event) {
    // publish the new bound before unlinking, so a reader that sees a cut chain also sees it
    compactedRevision = event.revision;
    Version v = event.version;
    v.prev = null;
    if (v.deleted) {
      Resource r = resources.get(ResourceId.of(v.value.key()));
      r.objects.remove(v.value.key().relativeKey(), v);
    }
    ring[(int) (event.revision % ring.length)] = null;
    retainedBytes -= event.bytes;
  }

  /**
   * Discards history up to and including {@code revision} (at most the current revision), as
   * etcd's compaction does: reads below it and watches from before it get 410 Expired.
   *
   * @param revision the revision to compact up to; a lower one than the current compaction does nothing
   * @throws IllegalArgumentException when it is beyond the current revision
   */
  public void compact(long revision) {
    writeLock.lock();
    try {
      checkOpen();
      if (revision > this.revision) {
        throw new IllegalArgumentException(
            "cannot compact to " + revision + " beyond the current revision " + this.revision);
      }
      for (long r = compactedRevision + 1; r <= revision; r++) {
        HistoryEvent e = ring[(int) (r % ring.length)];
        if (e != null && e.revision == r) {
          compactOne(e);
        }
      }
      if (revision > compactedRevision) {
        compactedRevision = revision;
      }
    } finally {
      writeLock.unlock();
    }
  }

  // ---------------------------------------------------------------- watch

  @Override
  public Watch watch(CollectionKey collection, WatchOptions options) {
    requireNonNull(collection, "collection");
    requireNonNull(options, "options");
    Resource r = resource(ResourceId.of(collection));
    InMemoryWatch w;
    List<HistoryEvent> replay = List.of();
    long start;
    writeLock.lock();
    try {
      checkOpen();
      start = revision;
      long from = options.resourceVersion();
      boolean initial = options.sendsInitialEvents();
      if (!initial && from > 0) {
        if (from < compactedRevision) {
          throw StoreErrors.tooOldResourceVersion(from, compactedRevision);
        }
        if (from < start) {
          replay = new ArrayList<>((int) (start - from));
          for (long rev = from + 1; rev <= start; rev++) {
            HistoryEvent e = ring[(int) (rev % ring.length)];
            if (r.id.matches(e.version.value.key())) {
              replay.add(e);
            }
          }
        }
      }
      long deliverAfter = initial ? start : Math.max(from, start);
      w = new InMemoryWatch(this, r, collection, options, deliverAfter, watchBufferSize, clock);
      r.watchers.add(w);
    } finally {
      writeLock.unlock();
    }
    if (options.sendsInitialEvents()) {
      w.startWithSnapshot(snapshot(r, collection, start), start);
    } else {
      w.startWithReplay(replay, Math.max(options.resourceVersion(), start));
    }
    return w;
  }

  /** The objects of a collection at {@code at}, or null if that revision was compacted meanwhile. */
  private List<StoredObject> snapshot(Resource r, CollectionKey collection, long at) {
    List<StoredObject> out = new ArrayList<>();
    for (Version head : range(r, collection, collection.relativePrefix()).values()) {
      StoredObject value = visibleAt(head, at);
      if (value != null) {
        out.add(value);
      }
    }
    return at >= compactedRevision ? out : null;
  }

  void unregister(Resource r, InMemoryWatch w) {
    r.watchers.remove(w);
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public void close() {
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (Resource r : resources.values()) {
        for (InMemoryWatch w : r.watchers) {
          w.end();
        }
        r.watchers.clear();
      }
    } finally {
      writeLock.unlock();
    }
    freshnessLock.lock();
    try {
      revisionAdvanced.signalAll();
    } finally {
      freshnessLock.unlock();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }

  private Resource resource(ResourceId id) {
    Resource r = resources.get(id);
    return r != null ? r : resources.computeIfAbsent(id, Resource::new);
  }

  /** Current revision as seen by watches deciding on bookmarks. */
  long publishedRevision() {
    return revision;
  }

  @Override
  public String toString() {
    return "InMemoryStore{revision=" + revision + ", compactedRevision=" + compactedRevision
        + ", historyLimit=" + ring.length + "}";
  }

  // ---------------------------------------------------------------- internals

  record ResourceId(String group, String resource) {
    static ResourceId of(ObjectKey k) {
      return new ResourceId(k.group(), k.resource());
    }

    static ResourceId of(CollectionKey k) {
      return new ResourceId(k.group(), k.resource());
    }

    boolean matches(ObjectKey k) {
      return k.resource().equals(resource) && k.group().equals(group);
    }
  }

  static final class Resource {
    final ResourceId id;
    final ConcurrentSkipListMap<String, Version> objects =
        new ConcurrentSkipListMap<>(Values::compareStrings);
    final CopyOnWriteArrayList<InMemoryWatch> watchers = new CopyOnWriteArrayList<>();

    Resource(ResourceId id) {
      this.id = id;
    }
  }

  /** One state of a key. A tombstone carries the last state stamped with the deletion revision. */
  static final class Version {
    final long revision;
    final StoredObject value;
    final boolean deleted;
    /** The previous state; cut by compaction once no retained revision needs it. */
    volatile Version prev;

    Version(long revision, StoredObject value, boolean deleted, Version prev) {
      this.revision = revision;
      this.value = value;
      this.deleted = deleted;
      this.prev = prev;
    }
  }

  /**
   * One change: the version it created and the state before it (null for a creation).
   */
  static final class HistoryEvent {
    final long revision;
    final Version version;
    final StoredObject previous;
    /** Estimated heap the event keeps alive. */
    final long bytes;
    /** When it was committed, in the store clock's milliseconds. */
    final long committedMillis;

    HistoryEvent(long revision, Version version, StoredObject previous, long bytes,
        long committedMillis) {
      this.revision = revision;
      this.version = version;
      this.previous = previous;
      this.bytes = bytes;
      this.committedMillis = committedMillis;
    }
  }

  /** Builder; every setter validates at once. */
  public static final class Builder {
    private int historyLimit = DEFAULT_HISTORY_LIMIT;
    private long historyBytes = DEFAULT_HISTORY_BYTES;
    private java.time.Duration historyAge = DEFAULT_HISTORY_AGE;
    private int watchBufferSize = DEFAULT_WATCH_BUFFER;
    private InstantSource clock = InstantSource.system();

    private Builder() {}

    /**
     * How many changes to retain for watches and paged lists (at least 1).
     *
     * @param limit the number of changes
     * @return this builder
     * @throws IllegalArgumentException when below 1
     */
    public Builder historyLimit(int limit) {
      if (limit < 1) {
        throw new IllegalArgumentException("historyLimit must be at least 1: " + limit);
      }
      this.historyLimit = limit;
      return this;
    }

    /**
     * The most heap (estimated from the objects' sizes) the retained changes may keep alive; the
     * oldest are compacted beyond it, though the newest change is always kept. At least 1.
     *
     * @param bytes the estimated heap bytes
     * @return this builder
     * @throws IllegalArgumentException when below 1
     */
    public Builder historyBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("historyBytes must be at least 1: " + bytes);
      }
      this.historyBytes = bytes;
      return this;
    }

    /**
     * How long a change is retained at most (by the store clock); older ones are compacted at
     * the next write, as kube-apiserver's periodic etcd compaction drops old history. Positive.
     *
     * @param age the retention time
     * @return this builder
     * @throws IllegalArgumentException when not positive
     */
    public Builder historyAge(java.time.Duration age) {
      requireNonNull(age, "age");
      if (age.isNegative() || age.isZero()) {
        throw new IllegalArgumentException("historyAge must be positive: " + age);
      }
      this.historyAge = age;
      return this;
    }

    /**
     * How many undelivered changes a watch may buffer before it is ended (at least 1).
     *
     * @param size the number of events
     * @return this builder
     * @throws IllegalArgumentException when below 1
     */
    public Builder watchBufferSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("watchBufferSize must be at least 1: " + size);
      }
      this.watchBufferSize = size;
      return this;
    }

    /**
     * The time source for bookmark intervals and history age.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(InstantSource clock) {
      this.clock = requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds an empty store with these settings.
     *
     * @return the new store
     */
    public InMemoryStore build() {
      return new InMemoryStore(this);
    }
  }
}
