/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.etcd.jetcd.Client;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on a jetcd client the caller built (as for TLS or authentication), through
 * which the store restates its requests in jetcd's API.
 */
class EtcdStoreCallerClientContractTest extends EtcdStoreContractTest {
  private static Client client;

  @BeforeAll
  static void connectClient() throws Exception {
    client = Client.builder().endpoints(etcd().clientUri()).build();
    // connected before the first test, whose requests have the store's timeout (a busy machine
    // takes seconds to set up jetcd's first connection)
    client.getKVClient().get(EtcdKeys.bytes("/")).get(1, TimeUnit.MINUTES);
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
