/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EtcdServerTest {
  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  @Test
  void startsStopsRestartsKeepingDataAndPorts() throws Exception {
    Path root;
    try (EtcdServer server = EtcdServer.start();
        Client client = Client.builder().endpoints(server.clientUri())
            .connectTimeout(Duration.ofSeconds(1)).waitForReady(false).build()) {
      root = server.dataDir().getParent();
      assertThat(server.isRunning()).isTrue();
      assertThat(server.clientPort()).isNotEqualTo(server.peerPort());
      client.getKVClient().put(bytes("/k"), bytes("v1")).get(5, TimeUnit.SECONDS);

      int port = server.clientPort();
      server.stop();
      assertThat(server.isRunning()).isFalse();
      assertThatThrownBy(() -> client.getKVClient().put(bytes("/k"), bytes("v2"))
          .get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class);

      server.restart();
      assertThat(server.clientPort()).isEqualTo(port);
      GetResponse got = awaitGet(client, "/k");
      assertThat(got.getKvs()).hasSize(1);
      assertThat(got.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8)).isEqualTo("v1");

      server.kill();
      assertThat(server.isRunning()).isFalse();
      server.restart();
      assertThat(awaitGet(client, "/k").getKvs()).hasSize(1);
      assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("still running");
    }
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void closedServerRejectsControl() {
    EtcdServer server = EtcdServer.start();
    server.close();
    server.close();
    assertThat(server.isRunning()).isFalse();
    assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void progressNotifyIntervalIsValidated() {
    assertThatThrownBy(() -> EtcdServer.builder().progressNotifyInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void findsTheBinary() {
    // scripts/test installs etcd-server; a machine without it must fail here, loudly
    assertThat(EtcdServer.findBinary())
        .withFailMessage("etcd binary not found: install the Debian package etcd-server")
        .isPresent();
  }

  /** Reads, riding out the first failed attempts of a client that saw the server go away. */
  private static GetResponse awaitGet(Client client, String key) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        return client.getKVClient().get(bytes(key)).get(2, TimeUnit.SECONDS);
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
    }
  }
}
