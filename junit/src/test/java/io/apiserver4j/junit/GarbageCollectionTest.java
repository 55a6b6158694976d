/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@ApiServerTest(lifecycle = Lifecycle.RESET_PER_METHOD, garbageCollection = true)
class GarbageCollectionTest {
  static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");

  ApiServer api;
  ResourceClient configMaps;

  MapValue create(String name, MapValue... owners) {
    StringBuilder refs = new StringBuilder();
    for (MapValue o : owners) {
      refs.append("{apiVersion: v1, kind: ConfigMap, name: ").append(Meta.metaString(o, "name"))
          .append(", uid: ").append(Meta.metaString(o, "uid"))
          .append(", blockOwnerDeletion: true},");
    }
    configMaps = api.resources("v1", "configmaps").namespace("default");
    return configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: "
        + name + ", ownerReferences: [" + refs + "]}}"));
  }

  void delete(String name, PropagationPolicy policy) {
    api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE, CONFIG_MAPS).namespace("default")
        .name(name).propagationPolicy(policy).build()).orThrow();
  }

  /**
   * The MODIFIED and DELETED events ("TYPE name") until {@code last} arrives, waiting on the
   * watch (which starts with ADDED events of the objects already there).
   */
  static List<String> eventsUntil(ApiWatch watch, String last) throws InterruptedException {
    List<String> seen = new ArrayList<>();
    lastEvent(watch, last, seen);
    return seen;
  }

  /**
   * The object of the event {@code last}. Assertions read it from the event rather than with a
   * GET: the in-memory store hands an event to watches just before reads see its revision.
   */
  static MapValue lastEvent(ApiWatch watch, String last, List<String> seen)
      throws InterruptedException {
    while (true) {
      Optional<ApiWatchEvent> e = watch.poll(Duration.ofSeconds(10));
      assertThat(e).as("events so far: %s, waiting for %s", seen, last).isPresent();
      String event = e.get().type() + " " + Nested.str(e.get().object(), "metadata", "name");
      if (!e.get().type().equals("ADDED")) {
        seen.add(event);
      }
      if (event.equals(last)) {
        return e.get().object();
      }
    }
  }

  @Test
  void backgroundDeletesDependentsAfterTheOwner() throws Exception {
    MapValue owner = create("owner");
    create("child", owner);
    create("grandchild", create("other-child", owner));
    try (ApiWatch watch = configMaps.watch()) {
      delete("owner", PropagationPolicy.BACKGROUND);
      List<String> events = eventsUntil(watch, "DELETED grandchild");
      // kube's collector deletes independent dependents in parallel: child may go after
      // grandchild, whose owner other-child must go first
      if (!events.contains("DELETED child")) {
        events.addAll(eventsUntil(watch, "DELETED child"));
      }
      assertThat(events).startsWith("DELETED owner").contains("DELETED child",
          "DELETED other-child");
      assertThat(events.indexOf("DELETED other-child"))
          .isLessThan(events.indexOf("DELETED grandchild"));
    }
  }

  @Test
  void orphanKeepsDependentsWithoutTheReference() throws Exception {
    MapValue owner = create("owner");
    create("child", owner, create("second-owner"));
    try (ApiWatch watch = configMaps.watch()) {
      delete("owner", PropagationPolicy.ORPHAN);
      List<String> seen = new ArrayList<>();
      MapValue child = lastEvent(watch, "MODIFIED child", seen);
      assertThat(Nested.list(child, "metadata", "ownerReferences"))
          .extracting(r -> Nested.str(r, "name")).containsExactly("second-owner");
      lastEvent(watch, "DELETED owner", seen);
      assertThat(seen).containsExactly("MODIFIED owner", "MODIFIED child", "DELETED owner");
    }
  }

  @Test
  void foregroundDeletesBlockingDependentsFirst() throws Exception {
    MapValue owner = create("owner");
    create("child", owner);
    try (ApiWatch watch = configMaps.watch()) {
      delete("owner", PropagationPolicy.FOREGROUND);
      List<String> events = eventsUntil(watch, "DELETED owner");
      assertThat(events).startsWith("MODIFIED owner").contains("DELETED child");
      assertThat(events.indexOf("DELETED child")).isLessThan(events.indexOf("DELETED owner"));
    }
  }

  @Test
  void aReferenceToAnAbsentOwnerIsRemovedWhileAnotherOwnerRemains() throws Exception {
    MapValue gone = create("gone");
    MapValue kept = create("kept");
    delete("gone", PropagationPolicy.BACKGROUND);
    try (ApiWatch watch = configMaps.watch()) {
      create("child", gone, kept);
      MapValue child = lastEvent(watch, "MODIFIED child", new ArrayList<>());
      assertThat(Nested.list(child, "metadata", "ownerReferences"))
          .extracting(r -> Nested.str(r, "name")).containsExactly("kept");
    }
  }

  @ApiServerTest
  static class WithoutGarbageCollection {
    ApiServer api;

    @Test
    void dependentsStayAndOrphanFinalizersRemain() {
      ResourceClient cms = api.resources("v1", "configmaps").namespace("default");
      MapValue owner = cms.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: o}}"));
      cms.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: c,"
          + " ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: o, uid: "
          + Meta.metaString(owner, "uid") + "}]}}"));
      api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE, CONFIG_MAPS).namespace("default")
          .name("o").propagationPolicy(PropagationPolicy.ORPHAN).build()).orThrow();
      assertThat(Meta.finalizers(cms.get("o"))).containsExactly("orphan");
      assertThat(cms.find("c")).isPresent();
    }
  }

  @Test
  void offByDefault() {
    org.junit.platform.testkit.engine.EngineTestKit.engine("junit-jupiter")
        .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(
            WithoutGarbageCollection.class)).execute()
        .testEvents().assertStatistics(s -> s.started(1).succeeded(1));
  }
}
