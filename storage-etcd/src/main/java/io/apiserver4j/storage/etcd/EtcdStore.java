/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.ByteString;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ContinueToken;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.ResourceVersionMatch;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoreErrors;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchOptions;
import io.apiserver4j.storage.etcd.EtcdCalls.Kind;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A {@link Store} on etcd v3 (through jetcd), laid out and behaving like kube-apiserver's etcd3
 * storage, so several API servers (or stores) sharing one etcd see each other's writes,
 * conflicts and watch events.
 *
 * <p><b>Keys</b>: {@code <prefix>/<group>/<resource>/<namespace>/<name>}, or
 * {@code <prefix>/<group>/<resource>/<name>} for cluster-scoped objects; the group segment is
 * empty for the core group ({@code /apiserver4j//configmaps/default/app}). No key component
 * contains {@code /}, so a collection's prefix matches exactly its members. Values are compact
 * JSON without {@code metadata.resourceVersion}.
 *
 * <p><b>Revisions</b>: an object's resourceVersion is its etcd mod revision; a list's is the
 * revision it was read at. Creates are transactions that require the key to be absent
 * (create revision 0); updates and deletes are compare-and-swap transactions on the mod revision
 * of the state they were decided on, whose Else branch reads the key, so that a lost race costs
 * no extra round trip. Lists read one consistent revision; later pages are read at the first
 * page's revision (kube's continue token carries it), so a compacted revision turns into 410
 * Expired. Watches are etcd watches from the start revision with previous values.
 *
 * <p><b>Round trips</b>: reads always go to etcd. Writes use, like kube's etcd3 store with its
 * cached existing object, the last state this store saw of the key (through its own reads and
 * writes; {@linkplain Builder#stateCache bounded}) as a guess checked by the compare-and-swap,
 * so the read-modify-write of a caller that just read the object costs one transaction, not a
 * second read and a transaction: an update at the resourceVersion the caller read, a
 * {@link #guaranteedUpdate}, or a delete with preconditions. A stale guess costs a failed compare
 * and a retry on the state the transaction returned; anything a guess would end with (a failed
 * precondition, an aborting update function, nothing to write) is confirmed on the state in
 * etcd first. Without a guess, an update without preconditions is still one transaction that
 * writes if the key is at the expected revision and holds a different value, and a delete with
 * only a resourceVersion precondition one that deletes if the key is at that revision. Guesses
 * rest on etcd's guarantee that a key has one value per mod revision; like kube-apiserver's
 * caches, stores must be restarted if etcd's data is replaced by an older copy (a restored
 * backup), whose revisions then repeat.
 *
 * <p><b>Failures</b>: every request waits at most the {@linkplain Builder#requestTimeout request
 * timeout} (5 s by default). etcd being unreachable, slow or leaderless is a 503
 * ServiceUnavailable, any other etcd failure a 500 InternalError; a write that fails this way may
 * or may not have been applied (the message says so), exactly as with kube-apiserver. The store
 * recovers by itself when etcd is back; a running watch whose stream broke ends with an ERROR
 * event ({@link io.apiserver4j.storage.WatchEvent.Failure}) and the consumer watches again from
 * the last revision it saw.
 *
 * <p>Thread-safe. {@link #close()} ends the watches, stops the compactor and closes the etcd
 * client if the store created it.
 */
public final class EtcdStore implements Store {
  /** The default key prefix. */
  public static final String DEFAULT_KEY_PREFIX = "/apiserver4j";
  /** The default bound on every etcd request. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
  /** The default per-watch buffer, in changes. */
  public static final int DEFAULT_WATCH_BUFFER = 1024;
  /** The default bound on the number of keys whose last state the store remembers. */
  public static final int DEFAULT_STATE_CACHE_ENTRIES = 1024;
  /** The default bound on the value bytes of the states the store remembers. */
  public static final long DEFAULT_STATE_CACHE_BYTES = 8L << 20;

  /** kube's cap on the doubling batch size of a filtered, paged list. */
  private static final long MAX_LIST_BATCH = 10_000;
  /** Batch size for the snapshot behind a watch's initial events. */
  private static final long SNAPSHOT_BATCH = 1_000;

  private final Client client;
  private final boolean ownsClient;
  private final KV kv;
  private final Kv requests;
  private final EtcdKeys keys;
  private final EtcdCalls calls;
  private final InstantSource clock;
  private final int watchBufferSize;
  private final Compactor compactor;
  private final StateCache cache;
  private final Set<EtcdWatch> watches = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private EtcdStore(Builder b) {
    this.calls = new EtcdCalls(b.requestTimeout);
    if (b.client != null) {
      this.client = b.client;
      this.ownsClient = false;
      this.kv = client.getKVClient();
      this.requests = new JetcdKv(kv);
    } else {
      ClientBuilder config = clientBuilder(b.endpoints, b.requestTimeout, b.interceptors);
      this.client = config.build();
      this.ownsClient = true;
      this.kv = client.getKVClient();
      this.requests = new GrpcKv(config.target(), b.requestTimeout, b.interceptors);
    }
    this.keys = new EtcdKeys(b.keyPrefix);
    this.clock = b.clock;
    this.watchBufferSize = b.watchBufferSize;
    this.cache = new StateCache(b.stateCacheEntries, b.stateCacheBytes);
    this.compactor = new Compactor(kv, keys, calls, clock, b.compactionPolicy,
        b.compactionPollPeriod);
  }

  /** {@return a new builder; {@link Builder#endpoints(List)} or a client must be set} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A client that fails fast while etcd is unreachable instead of queueing requests until it is
   * back or retrying them (the caller sees a 503 and decides), and that gives every unary call a
   * deadline (watch streams excepted), so etcd stops working on requests nobody waits for. It
   * serves watches, health checks and compaction; reads and writes go through {@link GrpcKv}
   * on the same endpoints.
   */
  private static ClientBuilder clientBuilder(List<URI> endpoints, Duration timeout,
      List<ClientInterceptor> interceptors) {
    ClientInterceptor deadline = new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
          CallOptions options, Channel next) {
        if (method.getType() == MethodDescriptor.MethodType.UNARY && options.getDeadline() == null) {
          options = options.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        return next.newCall(method, options);
      }
    };
    return Client.builder()
        .endpoints(endpoints)
        .waitForReady(false)
        .retryMaxAttempts(0)
        .connectTimeout(timeout)
        .interceptor(deadline, interceptors.toArray(ClientInterceptor[]::new));
  }

  // ---------------------------------------------------------------- reads

  /** Always a read from etcd (the states this store remembers only ever guide its writes). */
  @Override
  public Optional<StoredObject> get(ObjectKey key) {
    requireNonNull(key, "key");
    checkOpen();
    return read(key, keys.keyBytes(key));
  }

  private Optional<StoredObject> read(ObjectKey key, ByteString k) {
    GetResponse r = calls.await(requests.range(KvRequests.get(k)), Kind.READ,
        "get " + keys.key(key));
    return observed(key, r, r.getHeader().getRevision());
  }

  /**
   * The state of {@code key} a read at {@code revision} returned, remembered as the first guess
   * for later writes of the key.
   */
  private Optional<StoredObject> observed(ObjectKey key, GetResponse r, long revision) {
    if (r.getKvs().isEmpty()) {
      cache.forget(key, revision);
      return Optional.empty();
    }
    KeyValue found = r.getKvs().get(0);
    StoredObject state = ObjectCodec.decode(key, found.getValue(), found.getModRevision());
    cache.remember(state, found.getValue().size());
    return Optional.of(state);
  }

  /** How long a health check waits for etcd (kube's {@code --etcd-healthcheck-timeout}). */
  static final Duration HEALTH_CHECK_TIMEOUT = Duration.ofSeconds(2);

  /** A count-only read of one key, as kube's etcd health check reads its {@code health} key. */
  @Override
  public Optional<String> check() {
    if (closed) {
      return Optional.of("the etcd client is closed");
    }
    CompletableFuture<GetResponse> f;
    try {
      f = kv.get(keys.compactKey(), GetOption.builder().withCountOnly(true).build());
      f.get(HEALTH_CHECK_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
      return Optional.empty();
    } catch (java.util.concurrent.TimeoutException e) {
      return Optional.of("etcd did not answer within " + HEALTH_CHECK_TIMEOUT.toSeconds() + "s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while checking etcd");
    } catch (ExecutionException | RuntimeException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      return Optional.of("error getting data from etcd: " + cause.getMessage());
    }
  }

  @Override
  public long currentRevision() {
    checkOpen();
    GetResponse r = calls.await(requests.range(RangeRequest.newBuilder()
        .setKey(keys.compactKeyBytes()).setCountOnly(true).build()),
        Kind.READ, "read the current revision");
    return r.getHeader().getRevision();
  }

  /**
   * The newest compaction revision this store performed or observed (through its compaction
   * policy, {@link #compact}, or a watch that etcd cancelled for compaction); 0 if none.
   *
   * @return the revision, 0 if none
   */
  public long compactedRevision() {
    return compactor.compactedRevision();
  }

  @Override
  public ListResult list(CollectionKey collection, ListOptions options) {
    requireNonNull(collection, "collection");
    requireNonNull(options, "options");
    checkOpen();
    String prefix = keys.collectionPrefix(collection);
    ByteString end = EtcdKeys.prefixEnd(prefix);
    String start = prefix;
    long withRev = 0;
    long minimum = 0;
    Optional<ContinueToken> token = options.decodedContinueToken();
    boolean continuing = token.isPresent();
    if (continuing) {
      ContinueToken decoded = token.get();
      start = keys.resourcePrefix(collection) + decoded.relativeStartKey(collection);
      // a negative token revision means "continue at the latest revision"
      withRev = Math.max(0, decoded.resourceVersion());
    } else if (options.resourceVersionMatch() == ResourceVersionMatch.NOT_OLDER_THAN) {
      minimum = options.resourceVersion();
    } else if (options.resourceVersionMatch() == ResourceVersionMatch.EXACT) {
      withRev = options.resourceVersion();
    }

    long limit = options.limit();
    boolean paging = limit > 0;
    boolean everything = options.selectsEverything();
    List<StoredObject> items = new ArrayList<>();
    String lastKey = null;
    boolean hasMore;
    long count;
    long batch = limit;
    // kube's loop: keep reading at the same revision until the page is full or the range ends,
    // doubling the batch when selectors dropped objects
    while (true) {
      GetResponse r = range(start, end, withRev, batch, continuing);
      if (withRev == 0) {
        withRev = r.getHeader().getRevision();
        if (minimum > withRev) {
          throw StoreErrors.tooLargeResourceVersion(minimum, withRev);
        }
      }
      List<KeyValue> kvs = r.getKvs();
      count = r.getCount();
      boolean chunkHasMore = kvs.size() < count;
      boolean limitReached = false;
      for (KeyValue kv : kvs) {
        if (paging && items.size() >= limit) {
          limitReached = true;
          break;
        }
        lastKey = EtcdKeys.string(kv.getKey());
        StoredObject o = ObjectCodec.decode(keys.objectKey(collection, lastKey), kv.getValue(),
            kv.getModRevision());
        if (everything || (options.labelSelector().matches(o.object())
            && options.fieldSelector().matches(o.object()))) {
          items.add(o);
        }
      }
      hasMore = chunkHasMore || limitReached;
      if (limitReached || !chunkHasMore || (paging && items.size() >= limit)) {
        break;
      }
      if (kvs.isEmpty()) {
        throw StatusErrors.internal("etcd reported more keys under " + prefix
            + " but returned none");
      }
      start = lastKey + "\0";
      batch = Math.min(batch * 2, MAX_LIST_BATCH);
    }
    if (!hasMore || lastKey == null) {
      return new ListResult(items, withRev, Optional.empty(), Optional.empty());
    }
    String next = ContinueToken.after(collection, keys.objectKey(collection, lastKey), withRev)
        .encode();
    // etcd counts keys the selectors dropped, so the count is only reported without selectors
    Optional<Long> remaining = everything ? Optional.of(count - limit) : Optional.empty();
    return new ListResult(items, withRev, Optional.of(next), remaining);
  }

  /** One range read of a list, with kube's interpretation of compacted and future revisions. */
  private GetResponse range(String start, ByteString end, long revision, long limit,
      boolean continuing) {
    RangeRequest.Builder request = KvRequests.range(EtcdKeys.utf8(start), end, revision);
    if (limit > 0) {
      request.setLimit(limit);
    }
    CompletableFuture<GetResponse> f = requests.range(request.build());
    try {
      return calls.await(f, Kind.READ, "list " + start);
    } catch (RuntimeException e) {
      Throwable cause = failureOf(f);
      if (cause != null && EtcdCalls.isCompacted(cause)) {
        throw StoreErrors.expired(continuing ? StoreErrors.INCONSISTENT_CONTINUE_MESSAGE
            : StoreErrors.LIST_EXPIRED_MESSAGE);
      }
      if (cause != null && EtcdCalls.isFutureRevision(cause)) {
        throw StoreErrors.tooLargeResourceVersion(revision, currentRevision());
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------- writes

  @Override
  public StoredObject create(ObjectKey key, MapValue object) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    checkOpen();
    StoredObjects.requireNoResourceVersion(object);
    ByteString k = keys.keyBytes(key);
    ByteString value = ObjectCodec.encode(object);
    TxnResponse r = calls.await(requests.txn(TxnRequest.newBuilder()
        .addCompare(KvRequests.absent(k))
        .addSuccess(KvRequests.putOp(k, value))
        .build()), Kind.WRITE, "create " + keys.key(key));
    if (!r.isSucceeded()) {
      throw StoreErrors.alreadyExists(key);
    }
    return written(key, object, value, r.getHeader().getRevision());
  }

  /**
   * One transaction in the common case. When this store knows the state at the expected
   * revision (it read or wrote it), the preconditions and the no-op check are decided on that
   * state and the transaction writes if the key is still at that revision; otherwise, without
   * preconditions, the transaction writes if the key is at the expected revision and holds a
   * different value. A failed compare returns the key's state in the same transaction, which
   * tells a NotFound from a Conflict from a no-op. In that second case the no-op check compares
   * encoded values, so an object equal to the stored one except for the order of its map keys is
   * written (with a new resourceVersion) rather than found unchanged.
   */
  @Override
  public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    requireNonNull(preconditions, "preconditions");
    checkOpen();
    Preconditions.requireValidExpectedRevision(expectedResourceVersion);
    StoredObject known = expectedResourceVersion == ANY_VERSION ? cache.latest(key)
        : cache.at(key, expectedResourceVersion);
    if (known == null && preconditions.isEmpty()) {
      return replace(key, object, expectedResourceVersion);
    }
    return compareAndSwap(key, preconditions, expectedResourceVersion, current -> object, known);
  }

  /**
   * Like kube's GuaranteedUpdate with a cached existing object: the first attempt works on the
   * state this store last saw of the key, if any, so that it costs a single transaction when
   * nobody else wrote in between; otherwise the state is read first.
   */
  @Override
  public StoredObject guaranteedUpdate(ObjectKey key, Preconditions preconditions,
      UnaryOperator<MapValue> tryUpdate) {
    requireNonNull(key, "key");
    requireNonNull(preconditions, "preconditions");
    requireNonNull(tryUpdate, "tryUpdate");
    checkOpen();
    return compareAndSwap(key, preconditions, ANY_VERSION, tryUpdate, cache.latest(key));
  }

  /**
   * An update without a known current state or preconditions, as one transaction: put if the key
   * is at the expected revision (any, with {@link #ANY_VERSION}) and its value is not already
   * the new one. etcd fails a value compare on a missing key, so the Else branch's read tells
   * the three outcomes apart: missing, moved on (Conflict), or already this value (no-op). A
   * replacement equal to the stored object except for the order of its map keys is written,
   * where a check on the decoded state would find nothing to do; this store decides on the
   * decoded state whenever it knows it, which it does after reading or writing the key itself.
   */
  private StoredObject replace(ObjectKey key, MapValue object, long expected) {
    ByteString k = keys.keyBytes(key);
    ByteString value = ObjectCodec.encode(object);
    TxnRequest.Builder txn = TxnRequest.newBuilder();
    if (expected != ANY_VERSION) {
      txn.addCompare(KvRequests.modRevisionIs(k, expected));
    }
    TxnResponse r = calls.await(requests.txn(txn
        .addCompare(KvRequests.valueIsNot(k, value))
        .addSuccess(KvRequests.putOp(k, value))
        .addFailure(KvRequests.getOp(k))
        .build()), Kind.WRITE, "update " + keys.key(key));
    if (r.isSucceeded()) {
      return written(key, object, value, r.getHeader().getRevision());
    }
    StoredObject current = fresh(key, r).orElseThrow(() -> StoreErrors.notFound(key));
    Preconditions.checkExpectedRevision(key, expected, current.resourceVersion());
    return current; // at the expected revision with the new value already: nothing to write
  }

  /**
   * kube's GuaranteedUpdate: check the expected version and the preconditions on the current
   * state, skip a no-op, then write if the mod revision is still that state's; a lost race
   * re-runs on the state the transaction returned (or is a Conflict when a specific version was
   * expected). {@code known} is a state this store remembers (at the expected revision, if one
   * is expected), or null to read first. Anything decided on a remembered state that ends the
   * update (a failed precondition, {@code tryUpdate} throwing, a no-op) is decided again on the
   * state read from etcd, as kube does when its cached object may be stale.
   */
  private StoredObject compareAndSwap(ObjectKey key, Preconditions preconditions, long expected,
      UnaryOperator<MapValue> tryUpdate, StoredObject known) {
    ByteString k = keys.keyBytes(key);
    String etcdKey = keys.key(key);
    boolean verified = known == null;
    StoredObject current = verified ? readExisting(key, k) : known;
    while (true) {
      Preconditions.checkExpectedRevision(key, expected, current.resourceVersion());
      MapValue updated;
      try {
        preconditions.check(current);
        updated = requireNonNull(tryUpdate.apply(current.object()), "tryUpdate result");
      } catch (RuntimeException e) {
        if (verified) {
          throw e;
        }
        current = readExisting(key, k);
        verified = true;
        continue;
      }
      if (StoredObjects.sameIgnoringResourceVersion(current, updated)) {
        if (verified) {
          return current;
        }
        // nothing to write if the remembered state is still the current one
        TxnResponse r = calls.await(requests.txn(TxnRequest.newBuilder()
            .addCompare(KvRequests.modRevisionIs(k, current.resourceVersion()))
            .addFailure(KvRequests.getOp(k))
            .build()), Kind.READ, "update " + etcdKey);
        if (r.isSucceeded()) {
          return current;
        }
        current = fresh(key, r).orElseThrow(() -> StoreErrors.notFound(key));
        verified = true;
        continue;
      }
      ByteString value = ObjectCodec.encode(updated);
      TxnResponse r = calls.await(requests.txn(TxnRequest.newBuilder()
          .addCompare(KvRequests.modRevisionIs(k, current.resourceVersion()))
          .addSuccess(KvRequests.putOp(k, value))
          .addFailure(KvRequests.getOp(k))
          .build()), Kind.WRITE, "update " + etcdKey);
      if (r.isSucceeded()) {
        return written(key, updated, value, r.getHeader().getRevision());
      }
      current = fresh(key, r).orElseThrow(() -> StoreErrors.notFound(key));
      verified = true;
    }
  }

  /**
   * Deletes in one transaction in the common case: without preconditions a plain delete; with a
   * resourceVersion precondition alone, a delete if the key is at that revision (the precondition
   * holds exactly then); with others, a delete if the key is still at the revision of the state
   * the preconditions were checked on, remembered by this store or read first.
   */
  @Override
  public StoredObject delete(ObjectKey key, Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(preconditions, "preconditions");
    checkOpen();
    ByteString k = keys.keyBytes(key);
    String etcdKey = keys.key(key);
    if (preconditions.isEmpty()) {
      DeleteResponse r = calls.await(requests.delete(KvRequests.delete(k, true)),
          Kind.WRITE, "delete " + etcdKey);
      if (r.getDeleted() == 0 || r.getPrevKvs().isEmpty()) {
        throw StoreErrors.notFound(key);
      }
      return deleted(key, ObjectCodec.decodeObject(key, r.getPrevKvs().get(0).getValue()),
          r.getHeader().getRevision());
    }
    StoredObject current = cache.latest(key);
    boolean verified = false;
    long required = preconditions.requiredRevision();
    if (required > 0 && (current == null || current.resourceVersion() != required)) {
      TxnResponse r = calls.await(requests.txn(TxnRequest.newBuilder()
          .addCompare(KvRequests.modRevisionIs(k, required))
          .addSuccess(KvRequests.deleteOp(k, true))
          .addFailure(KvRequests.getOp(k))
          .build()), Kind.WRITE, "delete " + etcdKey);
      if (r.isSucceeded()) {
        List<KeyValue> prev = r.getDeleteResponses().get(0).getPrevKvs();
        if (prev.isEmpty()) {
          throw StatusErrors.internal("etcd deleted " + etcdKey + " at revision " + required
              + " without returning its value");
        }
        return deleted(key, ObjectCodec.decodeObject(key, prev.get(0).getValue()),
            r.getHeader().getRevision());
      }
      current = fresh(key, r).orElseThrow(() -> StoreErrors.notFound(key));
      verified = true;
    } else if (current == null) {
      current = readExisting(key, k);
      verified = true;
    }
    // kube's conditionalDelete: check the preconditions on a state, delete only that state
    while (true) {
      try {
        preconditions.check(current);
      } catch (RuntimeException e) {
        if (verified) {
          throw e;
        }
        current = readExisting(key, k);
        verified = true;
        continue;
      }
      TxnResponse r = calls.await(requests.txn(TxnRequest.newBuilder()
          .addCompare(KvRequests.modRevisionIs(k, current.resourceVersion()))
          .addSuccess(KvRequests.deleteOp(k, false))
          .addFailure(KvRequests.getOp(k))
          .build()), Kind.WRITE, "delete " + etcdKey);
      if (r.isSucceeded()) {
        return deleted(key, current.object(), r.getHeader().getRevision());
      }
      current = fresh(key, r).orElseThrow(() -> StoreErrors.notFound(key));
      verified = true;
    }
  }

  private StoredObject written(ObjectKey key, MapValue object, ByteString value, long revision) {
    compactor.observeWrite(revision);
    StoredObject state = StoredObjects.stored(key, object, revision);
    cache.rememberWritten(state, value);
    return state;
  }

  private StoredObject deleted(ObjectKey key, MapValue last, long revision) {
    compactor.observeWrite(revision);
    cache.forget(key, revision);
    return StoredObjects.stored(key, last, revision);
  }

  /** The current state of a key that must exist, read from etcd. */
  private StoredObject readExisting(ObjectKey key, ByteString k) {
    return read(key, k).orElseThrow(() -> StoreErrors.notFound(key));
  }

  /** The state an unsuccessful CAS transaction's Else branch read. */
  private Optional<StoredObject> fresh(ObjectKey key, TxnResponse r) {
    return observed(key, r.getGetResponses().get(0), r.getHeader().getRevision());
  }

  // ---------------------------------------------------------------- watch

  @Override
  public Watch watch(CollectionKey collection, WatchOptions options) {
    requireNonNull(collection, "collection");
    requireNonNull(options, "options");
    checkOpen();
    String prefix = keys.collectionPrefix(collection);
    // a namespaced watch of one name needs only that key's events
    Optional<String> name = options.fieldSelector().requiredValue("metadata.name");
    boolean singleKey = name.isPresent() && !collection.isAllNamespaces();
    String watched = singleKey ? prefix + name.get() : prefix;
    // [key, key + NUL) holds exactly the key
    ByteString end = singleKey ? EtcdKeys.utf8(watched + "\0") : EtcdKeys.prefixEnd(prefix);

    long after;
    List<StoredObject> snapshot = null;
    if (options.sendsInitialEvents()) {
      snapshot = new ArrayList<>();
      after = snapshot(collection, watched, end, snapshot);
    } else if (options.resourceVersion() == 0) {
      after = currentRevision();
    } else {
      after = options.resourceVersion();
      requireRetained(watched, end, after);
    }
    EtcdWatch w = new EtcdWatch(this, keys, collection, watched, options, after,
        watchBufferSize, clock);
    if (snapshot != null) {
      w.initialEvents(snapshot, after);
    }
    watches.add(w);
    if (closed) {
      w.terminate(Optional.empty());
      throw closedError();
    }
    WatchOption option = WatchOption.builder()
        .withRange(ByteSequence.from(end))
        .withRevision(after + 1)
        .withPrevKV(true)
        .withProgressNotify(true)
        // without a leader etcd cannot tell whether the watch misses changes: end it instead
        .withRequireLeader(true)
        .build();
    w.attach(client.getWatchClient().watch(EtcdKeys.bytes(watched), option, w));
    return w;
  }

  /**
   * Reads the current state of the watched range in batches at one revision.
   *
   * @return the revision read at
   */
  private long snapshot(CollectionKey collection, String start, ByteString end,
      List<StoredObject> out) {
    long revision = 0;
    String from = start;
    while (true) {
      GetResponse r = range(from, end, revision, SNAPSHOT_BATCH, false);
      if (revision == 0) {
        revision = r.getHeader().getRevision();
      }
      for (KeyValue kv : r.getKvs()) {
        String key = EtcdKeys.string(kv.getKey());
        out.add(ObjectCodec.decode(keys.objectKey(collection, key), kv.getValue(),
            kv.getModRevision()));
        from = key + "\0";
      }
      if (r.getKvs().isEmpty() || r.getKvs().size() >= r.getCount()) {
        return revision;
      }
    }
  }

  /**
   * Fails with 410 Expired if changes after {@code after} were compacted: a read at the first
   * revision the watch needs fails exactly then (etcd reports compaction to a watch only
   * asynchronously, after it was created).
   */
  private void requireRetained(String start, ByteString end, long after) {
    CompletableFuture<GetResponse> f = requests.range(
        KvRequests.range(EtcdKeys.utf8(start), end, after + 1).setCountOnly(true).build());
    try {
      calls.await(f, Kind.READ, "watch " + start);
    } catch (RuntimeException e) {
      Throwable cause = failureOf(f);
      if (cause != null && EtcdCalls.isFutureRevision(cause)) {
        return; // nothing to replay: the watch waits for that revision
      }
      if (cause != null && EtcdCalls.isCompacted(cause)) {
        throw StoreErrors.tooOldResourceVersion(after, compactionRevision(start, end, after) - 1);
      }
      throw e;
    }
  }

  /** The revision etcd compacted at, learned from the cancellation of a watch behind it. */
  private long compactionRevision(String start, ByteString end, long after) {
    CompletableFuture<Long> revision = new CompletableFuture<>();
    io.etcd.jetcd.Watch.Watcher probe = client.getWatchClient().watch(EtcdKeys.bytes(start),
        WatchOption.builder().withRange(ByteSequence.from(end)).withRevision(after + 1).build(),
        io.etcd.jetcd.Watch.listener(response -> { }, error -> {
          Throwable t = EtcdCalls.unwrap(error);
          if (t instanceof io.etcd.jetcd.common.exception.CompactedException c) {
            revision.complete(c.getCompactedRevision());
          } else {
            revision.completeExceptionally(t);
          }
        }));
    try {
      long compacted = revision.get(calls.timeout().toNanos(), TimeUnit.NANOSECONDS);
      compactor.noteCompacted(compacted);
      return compacted;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Math.max(compactor.compactedRevision(), after + 1);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      // the read said compacted; without etcd's number, report the best one known
      return Math.max(compactor.compactedRevision(), after + 1);
    } finally {
      probe.close();
    }
  }

  void unregister(EtcdWatch w) {
    watches.remove(w);
  }

  Compactor compactor() {
    return compactor;
  }

  StateCache stateCache() {
    return cache;
  }

  // ---------------------------------------------------------------- compaction, lifecycle

  /**
   * Compacts etcd's history at {@code revision}, as {@code etcdctl compact} does: reads at older
   * revisions, continue tokens issued before it and watches from resource versions before
   * {@code revision - 1} get 410 Expired. Compacting at or below an earlier compaction does
   * nothing.
   *
   * @param revision the revision to compact to
   * @throws IllegalArgumentException if {@code revision} is not positive or beyond the current
   *     revision
   * @throws io.apiserver4j.core.errors.StatusException 503/500 if etcd fails
   */
  public void compact(long revision) {
    checkOpen();
    compactor.compact(revision);
  }

  /** {@return the etcd key prefix of this store} */
  public String keyPrefix() {
    return keys.prefix();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (EtcdWatch w : List.copyOf(watches)) {
      w.terminate(Optional.empty());
    }
    compactor.close();
    requests.close();
    if (ownsClient) {
      client.close();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw closedError();
    }
  }

  private static IllegalStateException closedError() {
    return new IllegalStateException("the etcd store is closed");
  }

  private static Throwable failureOf(CompletableFuture<?> f) {
    if (!f.isCompletedExceptionally()) {
      return null;
    }
    try {
      f.getNow(null);
      return null;
    } catch (java.util.concurrent.CompletionException e) {
      return e.getCause();
    } catch (java.util.concurrent.CancellationException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "EtcdStore{prefix=" + keys.prefix() + "}";
  }

  /**
   * Builder; every setter validates at once. Exactly one of {@link #endpoints} and
   * {@link #client} must be given.
   */
  public static final class Builder {
    private List<URI> endpoints;
    private Client client;
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private CompactionPolicy compactionPolicy = CompactionPolicy.none();
    private InstantSource clock = InstantSource.system();
    private int watchBufferSize = DEFAULT_WATCH_BUFFER;
    private Duration compactionPollPeriod = Duration.ofSeconds(1);
    private int stateCacheEntries = DEFAULT_STATE_CACHE_ENTRIES;
    private long stateCacheBytes = DEFAULT_STATE_CACHE_BYTES;
    private final List<ClientInterceptor> interceptors = new ArrayList<>();

    private Builder() {}

    /**
     * etcd's client URLs (plain HTTP); the store creates its own connections (failing fast while
     * etcd is unreachable) and closes them with the store: a jetcd client for watches, health
     * checks and compaction, and a gRPC channel whose blocking calls carry the reads and writes.
     *
     * @param endpoints etcd's client URLs
     * @return this builder
     */
    public Builder endpoints(List<URI> endpoints) {
      requireNonNull(endpoints, "endpoints");
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("endpoints must not be empty");
      }
      if (client != null) {
        throw new IllegalStateException("endpoints and client are exclusive; client is set");
      }
      this.endpoints = List.copyOf(endpoints);
      return this;
    }

    /**
     * The same as {@link #endpoints(List)}.
     *
     * @param endpoints etcd's client URLs
     * @return this builder
     */
    public Builder endpoints(URI... endpoints) {
      return endpoints(List.of(endpoints));
    }

    /**
     * An etcd client the caller configured (TLS, authentication) and keeps ownership of: the
     * store does not close it. Requests still end after the request timeout; a client built
     * with jetcd's default {@code waitForReady(true)} waits that long while etcd is down
     * instead of failing at once. Reads and writes then go through jetcd's asynchronous API,
     * which costs more CPU per request than the blocking calls on the store's own connection
     * (see {@link #endpoints(List)}).
     *
     * @param client the jetcd client, closed by its owner
     * @return this builder
     */
    public Builder client(Client client) {
      requireNonNull(client, "client");
      if (endpoints != null) {
        throw new IllegalStateException("endpoints and client are exclusive; endpoints are set");
      }
      this.client = client;
      return this;
    }

    /**
     * The prefix of every key, {@code /segment[/segment...]} ({@link #DEFAULT_KEY_PREFIX} by
     * default). Stores with different prefixes on one etcd are isolated from each other.
     *
     * @param prefix the key prefix
     * @return this builder
     */
    public Builder keyPrefix(String prefix) {
      requireNonNull(prefix, "prefix");
      this.keyPrefix = EtcdKeys.checkPrefix(prefix);
      return this;
    }

    /**
     * The longest any single etcd request may take before it fails with 503.
     *
     * @param timeout the limit, positive
     * @return this builder
     */
    public Builder requestTimeout(Duration timeout) {
      requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be positive: " + timeout);
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * How this store compacts etcd's history ({@link CompactionPolicy#none()} by default).
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder compactionPolicy(CompactionPolicy policy) {
      this.compactionPolicy = requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The time source for bookmark intervals and interval compaction.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(InstantSource clock) {
      this.clock = requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How many undelivered changes a watch may buffer before it is ended.
     *
     * @param size the buffer size, at least 1
     * @return this builder
     */
    public Builder watchBufferSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("watchBufferSize must be at least 1: " + size);
      }
      this.watchBufferSize = size;
      return this;
    }

    /**
     * Bounds the last states of keys the store remembers as first guesses for its writes (see
     * the class documentation), least recently used first out: at most {@code maxEntries} keys
     * and {@code maxBytes} bytes of stored values ({@link #DEFAULT_STATE_CACHE_ENTRIES},
     * {@link #DEFAULT_STATE_CACHE_BYTES} by default; decoded states take several times their
     * value's size on the heap). The states matter for a short time (between a caller's read and
     * its write), so small bounds serve many concurrent writers; a forgotten state costs a write
     * one read. Zero for either turns remembering off: every write then decides on what it reads
     * or on what its transaction returns.
     *
     * @param maxEntries how many states to remember at most
     * @param maxBytes how many bytes of stored values to remember at most
     * @return this builder
     */
    public Builder stateCache(int maxEntries, long maxBytes) {
      if (maxEntries < 0 || maxBytes < 0) {
        throw new IllegalArgumentException("stateCache bounds must not be negative: "
            + maxEntries + " entries, " + maxBytes + " bytes");
      }
      this.stateCacheEntries = maxEntries;
      this.stateCacheBytes = maxBytes;
      return this;
    }

    /**
     * An interceptor on every call the store's own connections to etcd make (with
     * {@link #endpoints}); for tests that count requests.
     */
    Builder interceptor(ClientInterceptor interceptor) {
      interceptors.add(requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /** How often (in real time) the compactor looks at the clock; for tests with a fake clock. */
    Builder compactionPollPeriod(Duration period) {
      if (period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException("compactionPollPeriod must be positive: " + period);
      }
      this.compactionPollPeriod = period;
      return this;
    }

    /**
     * Builds the store. Does not contact etcd: a store built while etcd is down works once it
     * is up.
     *
     * @return the store
     * @throws IllegalStateException if neither endpoints nor a client were given
     */
    public EtcdStore build() {
      if (endpoints == null && client == null) {
        throw new IllegalStateException("either endpoints or client must be set");
      }
      return new EtcdStore(this);
    }
  }
}
