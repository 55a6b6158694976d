/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
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
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
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

  /** Steps the clock {@code seconds} forward and waits for the controllers to settle. */
  void advance(long seconds) {
    clock.set(clock.instant().plusSeconds(seconds));
    idle();
  }

  /**
   * Marks every Pod of {@code namespace} not yet Running as Running and Ready now, as a kubelet
   * would, and waits for the controllers to settle. A Pod deleted meanwhile is skipped.
   */
  void markPodsReady(String namespace) {
    for (MapValue pod : api.resources(PODS).namespace(namespace).list()) {
      if (Nested.str(pod, "status", "phase").equals("Running")) {
        continue;
      }
      String time = Meta.formatTime(clock.instant());
      MapValue status = (MapValue) Json.read("{\"phase\":\"Running\",\"startTime\":\"" + time
          + "\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\","
          + "\"lastTransitionTime\":\"" + time + "\"}]}");
      ApiResponse response = api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
          .namespace(namespace).name(Meta.metaString(pod, "name")).subresource("status")
          .options(UpdateOptions.defaults()).body(pod.with("status", status)).build());
      if (response.code() != 404) {
        response.orThrow();
      }
    }
    idle();
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
