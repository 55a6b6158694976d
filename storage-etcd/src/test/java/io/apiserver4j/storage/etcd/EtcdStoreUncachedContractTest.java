package io.apiserver4j.storage.etcd;

import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoreContractTest;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract suite against a store that remembers no states, so that every write takes the
 * paths without a guess (a read first, or one transaction deciding on what etcd holds), which
 * {@link EtcdStoreContractTest}'s store mostly skips.
 */
class EtcdStoreUncachedContractTest extends StoreContractTest {
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
    return EtcdStore.builder()
        .endpoints(etcd.clientUri())
        .keyPrefix("/uncached/s" + STORES.incrementAndGet())
        .clock(clock)
        .stateCache(0, 0)
        .build();
  }

  @Override
  protected void compact(Store store, long revision) {
    ((EtcdStore) store).compact(Math.min(revision + 1, store.currentRevision()));
  }
}
