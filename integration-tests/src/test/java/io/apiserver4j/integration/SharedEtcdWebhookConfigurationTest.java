/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static io.apiserver4j.integration.TestValues.CONFIGMAPS;
import static io.apiserver4j.integration.TestValues.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhook configurations written through one API server take effect on another server over the
 * same etcd (which learns of them from its watch), and at once on the writing server.
 */
class SharedEtcdWebhookConfigurationTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int ASKS = 1000;
  private static EtcdServer etcd;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private ApiServer a;
  private ApiServer b;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @BeforeEach
  void twoServers() {
    a = server();
    b = server();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  private ApiServer server() {
    EtcdStore store = EtcdStore.builder().endpoints(etcd.clientUri())
        .keyPrefix("/it/webhook-configurations").build();
    ApiServer server = ApiServer.builder().store(store).build();
    closeables.add(server);
    closeables.add(store);
    return server;
  }

  private static ApiResponse dryRunCreate(ApiServer server) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, CONFIGMAPS)
        .namespace("default").dryRun(true).body(yaml("""
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: probe}
            """)).build());
  }

  /**
   * Waits for {@code server}'s watch of webhook configurations to deliver {@code type} (the
   * store's watch, which the server's own configuration source follows too), then asks until
   * the answer satisfies {@code done}: a few asks, since the source may apply the same event a
   * moment after the test's watch saw it.
   */
  private static ApiResponse afterEvent(ApiWatch watch, String type, ApiServer server,
      Predicate<ApiResponse> done) throws InterruptedException {
    Optional<ApiWatchEvent> event = watch.poll(WAIT);
    assertThat(event).map(ApiWatchEvent::type).hasValue(type);
    ApiResponse r = dryRunCreate(server);
    for (int ask = 1; ask < ASKS && !done.test(r); ask++) {
      r = dryRunCreate(server);
    }
    return r;
  }

  private static String message(ApiResponse r) {
    return r.failure().map(Status::message).orElse("(succeeded)");
  }

  @Test
  void aConfigurationWrittenThroughOneServerGovernsTheOther() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    MapValue config = yaml("""
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingWebhookConfiguration
        metadata: {name: gone.example.com}
        webhooks:
        - name: gone.example.com
          clientConfig: {url: "https://127.0.0.1:%d/validate"}
          rules:
          - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          sideEffects: None
          admissionReviewVersions: [v1]
        """.formatted(port));
    String expected = "Internal error occurred: failed calling webhook \"gone.example.com\":"
        + " failed to call webhook: Post \"https://127.0.0.1:" + port
        + "/validate?timeout=10s\": dial tcp 127.0.0.1:" + port + ": connect: connection refused";
    assertThat(dryRunCreate(b).isSuccess()).isTrue();

    ApiWatch seenByB = b.resources("admissionregistration.k8s.io/v1",
        "validatingwebhookconfigurations").watch();
    closeables.add(seenByB);
    a.resources("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations")
        .create(config);
    assertThat(message(dryRunCreate(a))).isEqualTo(expected);
    assertThat(message(afterEvent(seenByB, "ADDED", b, r -> !r.isSuccess())))
        .isEqualTo(expected);

    a.resources("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations")
        .delete("gone.example.com");
    assertThat(dryRunCreate(a).isSuccess()).isTrue();
    assertThat(afterEvent(seenByB, "DELETED", b, ApiResponse::isSuccess).isSuccess()).isTrue();
  }
}
