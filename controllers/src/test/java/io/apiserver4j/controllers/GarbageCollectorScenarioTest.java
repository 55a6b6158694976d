/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The garbage collector through the public API, scenario by scenario from
 * {@code garbagecollector/scenarios.yaml}: writes through the server, then the state once the
 * controllers are idle.
 */
class GarbageCollectorScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);

  static Stream<Arguments> scenarios() throws IOException {
    try (InputStream in = GarbageCollectorScenarioTest.class.getResourceAsStream(
        "garbagecollector/scenarios.yaml")) {
      Value all = Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return ((ListValue) all).items().stream()
          .map(v -> Arguments.of(Nested.str(v, "name"), v));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void scenario(String name, MapValue scenario) {
    AtomicLong uids = new AtomicLong();
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    // kube's gc tests write into namespaces they never create: no NamespaceLifecycle here, so
    // the uids the scenarios name count from the scenario's first object
    try (ApiServer api = ApiServer.builder().bootstrap(false).clock(clock)
            .uidSource(() -> "uid-" + uids.incrementAndGet())
            .disableAdmissionPlugins("NamespaceLifecycle").build();
        ControllerManager controllers = ControllerManager.builder(api).clock(clock)
            .controllers("garbagecollector").start()) {
      int n = 0;
      for (Value s : Nested.list(scenario, "steps")) {
        n++;
        for (Value o : Nested.list(s, "create")) {
          MapValue object = (MapValue) o;
          String apiVersion = Nested.str(object, "apiVersion");
          String plural = Nested.str(object, "kind").toLowerCase(Locale.ROOT) + "s";
          ResourceClient c = api.resources(apiVersion, plural);
          String ns = Meta.metaString(object, "namespace");
          (ns.isEmpty() ? c : c.namespace(ns)).create(object);
        }
        for (Value d : Nested.list(s, "delete")) {
          String policy = Nested.str(d, "propagationPolicy");
          DeleteOptions options = policy.isEmpty() ? DeleteOptions.defaults()
              : DeleteOptions.of(PropagationPolicy.valueOf(policy.toUpperCase(Locale.ROOT)));
          client(api, d).delete(Nested.str(d, "name"), options);
        }
        for (Value r : Nested.list(s, "removeFinalizers")) {
          client(api, r).patch(Nested.str(r, "name"), PatchType.MERGE_PATCH,
              "{\"metadata\":{\"finalizers\":null}}");
        }
        assertThat(controllers.awaitIdle(IDLE)).as("idle after step %d", n).isTrue();
        for (Value e : Nested.list(s, "expect")) {
          check(api, (MapValue) e, n);
        }
        for (Value e : Nested.list(s, "events")) {
          checkEvent(api, (MapValue) e, n);
        }
      }
    }
  }

  private static ResourceClient client(ApiServer api, Value ref) {
    String resource = Nested.str(ref, "resource");
    int slash = resource.lastIndexOf('/');
    ResourceClient c = api.resources(resource.substring(0, slash), resource.substring(slash + 1));
    String ns = Nested.str(ref, "namespace");
    return ns.isEmpty() ? c : c.namespace(ns);
  }

  private static void check(ApiServer api, MapValue expect, int step) {
    String what = "step " + step + ": " + Nested.str(expect, "resource") + " "
        + Nested.str(expect, "namespace") + "/" + Nested.str(expect, "name");
    Optional<MapValue> live = client(api, expect).find(Nested.str(expect, "name"));
    if (Nested.bool(expect, "gone")) {
      assertThat(live).as(what).isEmpty();
      return;
    }
    assertThat(live).as(what).isPresent();
    MapValue o = live.get();
    if (Nested.has(expect, "ownerReferences")) {
      List<String> uids = Nested.list(o, "metadata", "ownerReferences").stream()
          .map(r -> Nested.str(r, "uid")).toList();
      assertThat(uids).as(what + " ownerReferences").isEqualTo(
          Meta.stringList(expect.getOrNull("ownerReferences")));
    }
    if (Nested.has(expect, "finalizers")) {
      assertThat(Meta.finalizers(o)).as(what + " finalizers")
          .isEqualTo(Meta.stringList(expect.getOrNull("finalizers")));
    }
    assertThat(Nested.has(o, "metadata", "deletionTimestamp")).as(what + " being deleted")
        .isEqualTo(Nested.bool(expect, "deleting"));
  }

  private static void checkEvent(ApiServer api, MapValue expect, int step) {
    List<MapValue> events = api.resources(new GroupVersionResource("", "v1", "events"))
        .namespace(Nested.str(expect, "namespace")).list();
    MapValue wanted = expect.without("namespace");
    assertThat(events).as("step %d: events", step).anySatisfy(e -> {
      for (String key : wanted.asMap().keySet()) {
        assertThat(e.getOrNull(key)).as(key).isEqualTo(wanted.getOrNull(key));
      }
    });
  }
}
