/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks.coldstart;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;

/** Scenario (a): an {@code ApiServer} alone, one create and one get in process. */
public final class ApiServerAlone {
  private ApiServerAlone() {}

  public static void main(String[] args) {
    Phases.end("main");
    try (ApiServer server = ApiServer.builder().build()) {
      Phases.end("server");
      ResourceClient cms = server.resources(new GroupVersionResource("", "v1", "configmaps"))
          .namespace("default");
      cms.create((MapValue) Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cold\"},"
              + "\"data\":{\"k\":\"v\"}}"));
      cms.get("cold");
      Phases.end("answered");
    }
    Phases.print();
  }
}
