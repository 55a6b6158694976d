/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoreContractTest;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage SPI's contract suite against a real etcd: one server for the class, a fresh key
 * prefix (hence an isolated store) per test.
 */
class EtcdStoreContractTest extends StoreContractTest {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static EtcdServer etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @Override
  protected Store newStore(InstantSource clock) {
    return configure(connect(EtcdStore.builder())
        .keyPrefix("/contract/s" + STORES.incrementAndGet())
        .clock(clock))
        .build();
  }

  /** How the store reaches etcd: by default through connections of its own. */
  protected EtcdStore.Builder connect(EtcdStore.Builder builder) {
    return builder.endpoints(etcd.clientUri());
  }

  static EtcdServer etcd() {
    return etcd;
  }

  /** Lets a variant run the whole suite on differently configured stores. */
  protected EtcdStore.Builder configure(EtcdStore.Builder builder) {
    return builder;
  }

  /**
   * The contract wants every revision up to {@code revision} gone; etcd keeps the revision it
   * compacts at readable, so compact one later (it cannot go beyond the current revision).
   */
  @Override
  protected void compact(Store store, long revision) {
    ((EtcdStore) store).compact(Math.min(revision + 1, store.currentRevision()));
  }
}
