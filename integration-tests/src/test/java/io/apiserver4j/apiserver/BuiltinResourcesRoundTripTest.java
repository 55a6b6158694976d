/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in resource that kube stores takes kube's fully populated round-trip object
 * ({@code ../shared/api/roundtrip}, every field set) through create, get, list and delete, with
 * its kind's generated schema. The fixtures hold placeholder values ({@code "nameValue"}), which
 * the kinds whose validation is implemented (Pods and the workloads, Services) reject as kube
 * does: with a 422 Invalid naming the fields, never another error.
 */
class BuiltinResourcesRoundTripTest {
  static ApiServer server;

  @BeforeAll
  static void start() {
    // kube's round-trip fixtures name ServiceAccounts that do not exist: no ServiceAccount plugin
    server = ApiServer.builder().disableAdmissionPlugins(Fixtures.IN_PROCESS_PLUGINS).build();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  // kubernetes/api has fixtures of every kind but those of apiextensions and the aggregator;
  // resources without storage (bindings, reviews, componentstatuses) have no get
  static Stream<ResourceDefinition> stored() {
    return BuiltinResources.definitions().stream()
        .filter(d -> !d.kind().group().equals("apiextensions.k8s.io")
            && !d.kind().group().equals("apiregistration.k8s.io")
            && d.verbs().contains("get") && d.verbs().contains("create"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stored")
  void createGetListDelete(ResourceDefinition d) throws IOException {
    String group = d.kind().group().isEmpty() ? "core" : d.kind().group();
    MapValue fixture = (MapValue) Json.read(Files.readString(Path.of(
        System.getProperty("apiserver4j.shared", "../shared")).resolve("api/roundtrip")
        .resolve(group + "." + d.kind().version() + "." + d.kind().kind() + ".json")));
    String name = "rt-" + d.plural();
    MapValue object = fixture.with("metadata", MapValue.ofEntries("name", Value.of(name)));
    ResourceClient client = server.resources(d.resource());
    if (d.namespaced()) {
      client = client.namespace("default");
    }

    MapValue created;
    try {
      created = client.create(object);
    } catch (io.apiserver4j.core.errors.InvalidException e) {
      assertThat(e.status().code()).isEqualTo(422);
      assertThat(e.getMessage()).contains("\"" + name + "\" is invalid: ");
      return;
    }

    assertThat(created.getOrNull("kind")).isEqualTo(Value.of(d.kind().kind()));
    assertThat(client.get(name).getOrNull("spec")).isEqualTo(created.getOrNull("spec"));
    assertThat(client.list()).extracting(o -> ((MapValue) o.getOrNull("metadata"))
        .getOrNull("name")).contains(Value.of(name));
    client.delete(name);
  }
}
