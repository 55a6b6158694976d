/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import io.apiserver4j.apiserver.ApiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The setup of the tests that run the real kubectl: a bare {@link ApiServer} served over HTTP,
 * and a {@link Kubectl} with its kubeconfig, started once per test class. A subclass's own
 * {@code @BeforeAll} runs after this one, its {@code @AfterAll} before the servers close.
 */
public abstract class KubectlServerTest {
  @TempDir
  protected static Path dir;
  protected static ApiServer api;
  protected static HttpApiServer http;
  protected static Kubectl kubectl;

  @BeforeAll
  static void startServer() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    kubectl = new Kubectl(dir, http.kubeconfig().build());
  }

  @AfterAll
  static void stopServer() {
    http.close();
    api.close();
  }
}
