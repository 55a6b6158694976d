/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

/**
 * The contract suite against a store that remembers no states, so that every write takes the
 * paths without a guess (a read first, or one transaction deciding on what etcd holds), which
 * {@link EtcdStoreContractTest}'s store mostly skips.
 */
class EtcdStoreUncachedContractTest extends EtcdStoreContractTest {
  @Override
  protected EtcdStore.Builder configure(EtcdStore.Builder builder) {
    return builder.stateCache(0, 0);
  }
}
