/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

/**
 * {@link EtcdStoreRoundTripTest} on a jetcd client the caller built (as for TLS), through which
 * the store sends the same requests.
 */
class EtcdStoreCallerClientRoundTripTest extends EtcdStoreRoundTripTest {
  @Override
  EtcdStore.Builder counted() {
    return onCountedClient();
  }
}
