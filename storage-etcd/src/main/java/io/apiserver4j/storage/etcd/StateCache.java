/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import com.google.protobuf.ByteString;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last state of each key an {@link EtcdStore} saw (its own writes and reads), bounded in
 * entries and value bytes, least recently used first out. Nothing here is ever returned as the
 * answer to a read: an entry is only a guess at the state of a key that a write tests with a
 * compare on the mod revision, in the same etcd transaction that writes. A wrong guess therefore
 * costs a failed compare and a retry on the state etcd returns, never a wrong result, because a
 * key has exactly one value at a given mod revision.
 *
 * <p>Thread-safe; every operation takes one short lock (the etcd round trip it saves is several
 * orders of magnitude longer).
 */
final class StateCache {
  /** One key's last known state and the size of its stored value. */
  private record Entry(StoredObject state, int weight) {
    long revision() {
      return state.resourceVersion();
    }
  }

  private final int maxEntries;
  private final long maxBytes;
  private final LinkedHashMap<ObjectKey, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  /** A cache of at most {@code maxEntries} states of at most {@code maxBytes} value bytes. */
  StateCache(int maxEntries, long maxBytes) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  boolean enabled() {
    return maxEntries > 0 && maxBytes > 0;
  }

  /** The remembered state of {@code key}, whatever its revision; null if none. */
  StoredObject latest(ObjectKey key) {
    Entry e = entry(key);
    return e == null ? null : e.state();
  }

  /** The remembered state of {@code key} if it is the one written at {@code revision}. */
  StoredObject at(ObjectKey key, long revision) {
    Entry e = entry(key);
    return e == null || e.revision() != revision ? null : e.state();
  }

  private Entry entry(ObjectKey key) {
    if (!enabled()) {
      return null;
    }
    synchronized (this) {
      return entries.get(key);
    }
  }

  /** Remembers a state read from etcd; {@code weight} is the size of its stored value. */
  void remember(StoredObject state, int weight) {
    offer(new Entry(state, weight));
  }

  /**
   * Remembers what this store wrote: the object it encoded when that reads back equal (which
   * spares decoding the value), otherwise the value decoded, so that a remembered state always
   * equals what a read of the key at its revision returns.
   */
  void rememberWritten(StoredObject written, ByteString value) {
    if (!enabled() || value.size() > maxBytes) {
      return;
    }
    StoredObject state = ObjectCodec.readsBackEqual(written.object()) ? written
        : ObjectCodec.decode(written.key(), value, written.resourceVersion());
    offer(new Entry(state, value.size()));
  }

  private void offer(Entry e) {
    if (!enabled() || e.weight > maxBytes) {
      return;
    }
    synchronized (this) {
      Entry old = entries.get(e.state.key());
      // replies arrive out of order: never let an older state replace a newer one
      if (old != null && old.revision() >= e.revision()) {
        return;
      }
      entries.put(e.state.key(), e);
      bytes += e.weight - (old == null ? 0 : old.weight);
      Iterator<Map.Entry<ObjectKey, Entry>> eldest = entries.entrySet().iterator();
      while ((entries.size() > maxEntries || bytes > maxBytes) && eldest.hasNext()) {
        Entry out = eldest.next().getValue();
        eldest.remove();
        bytes -= out.weight;
      }
    }
  }

  /** Forgets {@code key} if what is remembered is older than {@code revision}, when it was absent. */
  void forget(ObjectKey key, long revision) {
    if (!enabled()) {
      return;
    }
    synchronized (this) {
      Entry old = entries.get(key);
      if (old != null && old.revision() < revision) {
        entries.remove(key);
        bytes -= old.weight;
      }
    }
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized long bytes() {
    return bytes;
  }
}
