/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.etcd.jetcd.Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on a jetcd client the caller built (as for TLS or authentication), through
 * which the store restates its requests in jetcd's API.
 */
class EtcdStoreCallerClientContractTest extends EtcdStoreContractTest {
  private static Client client;

  @BeforeAll
  static void connectClient() {
    client = Client.builder().endpoints(etcd().clientUri()).build();
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }

  @Override
  protected EtcdStore.Builder connect(EtcdStore.Builder builder) {
    return builder.client(client);
  }
}
