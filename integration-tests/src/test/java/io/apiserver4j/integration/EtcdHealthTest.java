/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 3: {@code /livez}, {@code /readyz} and {@code /healthz} tell the truth about
 * etcd, with kube-apiserver's check names and texts.
 */
class EtcdHealthTest {
  private static final Duration RECOVERY = Duration.ofSeconds(60);
  private static EtcdServer etcd;
  private static EtcdStore store;
  private static ApiServer api;
  private static HttpApiServer http;
  private static URI base;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    etcd = EtcdServer.start();
    store = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix("/health-test")
        .requestTimeout(Duration.ofSeconds(1)).build();
    api = ApiServer.builder().store(store).build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    store.close();
    etcd.close();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(base.resolve(path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Asks {@code path} until it answers {@code code}; each answer waits for its etcd check (up
   * to the check's own deadline), which paces the loop. Fails if etcd never gets there.
   */
  private static void awaitStatus(String path, int code) {
    assertTimeoutPreemptively(RECOVERY, () -> {
      while (get(path).statusCode() != code) {
        // the next answer reflects etcd's state by then
      }
    }, () -> path + " never answered " + code);
  }

  @Test
  void healthFollowsEtcd() throws Exception {
    HttpResponse<String> ready = get("/readyz?verbose");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).startsWith("[+]ping ok\n[+]log ok\n[+]etcd ok\n"
        + "[+]etcd-readiness ok\n").endsWith("[+]shutdown ok\nreadyz check passed\n");
    assertThat(get("/livez?verbose").body())
        .isEqualTo("[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n");
    assertThat(get("/readyz/etcd").body()).isEqualTo("ok");
    assertThat(get("/livez?verbose&exclude=etcd").body())
        .isEqualTo("[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\nlivez check passed\n");

    etcd.kill();
    try {
      awaitStatus("/readyz", 500);
      HttpResponse<String> down = get("/readyz");
      assertThat(down.body()).isEqualTo("[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n"
          + "[-]etcd-readiness failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n");
      HttpResponse<String> live = get("/livez");
      assertThat(live.statusCode()).isEqualTo(500);
      assertThat(live.body()).isEqualTo("[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n"
          + "livez check failed\n");
      assertThat(get("/healthz").statusCode()).isEqualTo(500);
      HttpResponse<String> one = get("/readyz/etcd");
      assertThat(one.statusCode()).isEqualTo(500);
      assertThat(one.body()).startsWith("internal server error: ");
      assertThat(get("/readyz/ping").statusCode()).isEqualTo(200);
      assertThat(get("/readyz?exclude=etcd&exclude=etcd-readiness").statusCode()).isEqualTo(200);
    } finally {
      etcd.restart();
    }
    awaitStatus("/readyz", 200);
    assertThat(get("/livez").body()).isEqualTo("ok");
  }
}
