/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One server's view of a shared store (as its own etcd client is): records its deletes, and
 * lets a test break, fail, hold or refuse its watches of the CRD collection, and fail its lists,
 * to drive the server's CRD informer through its recovery paths. Never closes the shared store.
 */
final class InterceptingStore implements Store {
  static final CollectionKey CRDS =
      CollectionKey.all("apiextensions.k8s.io", "customresourcedefinitions");

  private final Store delegate;
  final List<ObjectKey> deletes = new CopyOnWriteArrayList<>();
  final AtomicInteger crdLists = new AtomicInteger();
  private final List<InjectingWatch> crdWatches = new CopyOnWriteArrayList<>();
  /** Signalled each time a CRD watch is requested. */
  private final Semaphore crdWatchRequests = new Semaphore(0);
  /** Signalled each time a CRD watch is open (and can be ended). */
  private final Semaphore crdWatchesOpened = new Semaphore(0);
  private volatile CountDownLatch hold;
  private volatile StatusException watchFailure;
  private volatile StatusException listFailure;

  InterceptingStore(Store delegate) {
    this.delegate = delegate;
  }

  /** The next CRD watch requests wait until {@link #release()}. */
  void holdCrdWatches() {
    crdWatchRequests.drainPermits();
    hold = new CountDownLatch(1);
  }

  void release() {
    CountDownLatch h = hold;
    hold = null;
    if (h != null) {
      h.countDown();
    }
  }

  /** CRD watch requests throw {@code e} until {@link #refuseCrdWatches} is given null. */
  void refuseCrdWatches(StatusException e) {
    watchFailure = e;
  }

  /** CRD lists throw {@code e} until given null. */
  void failCrdLists(StatusException e) {
    listFailure = e;
  }

  /** Ends the open CRD watches, each with {@code event} (a Failure) or, if null, just closed. */
  void endCrdWatches(WatchEvent.Failure event) {
    for (InjectingWatch w : crdWatches) {
      w.end(event);
    }
  }

  /** Waits for the next CRD watch request; false if none comes within {@code timeout}. */
  boolean awaitCrdWatchRequest(Duration timeout) throws InterruptedException {
    return crdWatchRequests.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Waits until the next CRD watch (counting from the first) is open; false if it is not within
   * {@code timeout}.
   */
  boolean awaitCrdWatchOpen(Duration timeout) throws InterruptedException {
    return crdWatchesOpened.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public Optional<StoredObject> get(ObjectKey key) {
    return delegate.get(key);
  }

  @Override
  public ListResult list(CollectionKey collection, ListOptions options) {
    if (collection.equals(CRDS)) {
      crdLists.incrementAndGet();
      StatusException e = listFailure;
      if (e != null) {
        throw e;
      }
    }
    return delegate.list(collection, options);
  }

  @Override
  public StoredObject create(ObjectKey key, MapValue object) {
    return delegate.create(key, object);
  }

  @Override
  public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions) {
    return delegate.update(key, object, expectedResourceVersion, preconditions);
  }

  @Override
  public StoredObject delete(ObjectKey key, Preconditions preconditions) {
    StoredObject deleted = delegate.delete(key, preconditions);
    deletes.add(key);
    return deleted;
  }

  @Override
  public Watch watch(CollectionKey collection, WatchOptions options) {
    if (!collection.equals(CRDS)) {
      return delegate.watch(collection, options);
    }
    crdWatchRequests.release();
    CountDownLatch h = hold;
    if (h != null) {
      try {
        h.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while held", e);
      }
    }
    StatusException e = watchFailure;
    if (e != null) {
      throw e;
    }
    InjectingWatch w = new InjectingWatch(delegate.watch(collection, options));
    crdWatches.add(w);
    crdWatchesOpened.release();
    return w;
  }

  @Override
  public long currentRevision() {
    return delegate.currentRevision();
  }

  /** The shared store outlives this view. */
  @Override
  public void close() {}

  /** A watch that a test can end, optionally with a last event. */
  private final class InjectingWatch implements Watch {
    private final Watch watch;
    private volatile boolean ended;
    private volatile WatchEvent last;
    private volatile boolean lastTaken;

    InjectingWatch(Watch watch) {
      this.watch = watch;
    }

    void end(WatchEvent event) {
      last = event;
      ended = true;
      // wakes a poll blocked in the delegate
      watch.close();
    }

    @Override
    public synchronized Optional<WatchEvent> poll(Duration timeout) throws InterruptedException {
      if (!ended) {
        Optional<WatchEvent> e = watch.poll(timeout);
        if (!ended) {
          return e;
        }
      }
      // an event the delegate gave while ending is dropped: the informer resumes before it
      if (last != null && !lastTaken) {
        lastTaken = true;
        return Optional.of(last);
      }
      return Optional.empty();
    }

    @Override
    public boolean isClosed() {
      return ended ? last == null || lastTaken : watch.isClosed();
    }

    @Override
    public void close() {
      crdWatches.remove(this);
      watch.close();
    }
  }
}
