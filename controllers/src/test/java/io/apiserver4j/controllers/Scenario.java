/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a controller scenario test runs on: a server without the bootstrap on a clock that stands
 * still until the test sets it, with sequential uids ({@code uid-1}, ...) so that names and owner
 * references read the same on every run, its namespaces, and a controller manager on the same
 * clock. Registered with {@code @RegisterExtension}; both are closed after each test.
 */
final class Scenario implements AfterEachCallback {
  /** How long a test waits for the controllers to settle before it fails. */
  static final Duration IDLE = Duration.ofSeconds(30);

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  /** The scenario's clock, shared by the server and the manager. */
  SettableClock clock() {
    return clock;
  }

  /**
   * Builds the server and creates {@code namespaces} in it.
   *
   * @return the server, closed after the test
   */
  ApiServer server(String... namespaces) {
    return server(UnaryOperator.identity(), namespaces);
  }

  /** {@link #server(String...)}, with more settings of the server's builder. */
  ApiServer server(UnaryOperator<ApiServer.Builder> settings, String... namespaces) {
    AtomicLong uids = new AtomicLong();
    api = settings.apply(ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet())).build();
    for (String ns : namespaces) {
      api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
          + "\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
    }
    return api;
  }

  /**
   * Starts a manager running {@code selection} (kube's {@code --controllers} syntax) over the
   * server {@link #server} built.
   */
  ControllerManager start(String selection) {
    return start(selection, UnaryOperator.identity());
  }

  /** {@link #start(String)}, with more settings of the manager's builder. */
  ControllerManager start(String selection, UnaryOperator<ControllerManager.Builder> settings) {
    controllers = settings.apply(ControllerManager.builder(api).clock(clock)
        .controllers(selection)).start();
    return controllers;
  }

  /** Waits until the controllers are idle, failing the test if they are not within {@link #IDLE}. */
  void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("controllers idle").isTrue();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (controllers != null) {
      controllers.close();
      controllers = null;
    }
    if (api != null) {
      api.close();
      api = null;
    }
  }
}
