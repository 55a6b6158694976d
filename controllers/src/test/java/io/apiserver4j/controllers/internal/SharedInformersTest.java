/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shared informers read this server's writes at once: a controller's next sync sees what
 * its last one wrote, and a Pod the test created is known before the Service that selects it.
 */
class SharedInformersTest {
  private final ApiServer api = ApiServer.builder().build();
  private final Activity activity = new Activity();
  private final SharedInformers informers = new SharedInformers(api, activity);
  private final List<String> events = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    informers.close();
    api.close();
  }

  private ResourceClient configMaps() {
    return api.resources("v1", "configmaps").namespace("default");
  }

  private Informer started() {
    Informer i = informers.informer(new GroupResource("", "configmaps"));
    i.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        events.add("add " + Meta.metaString(object, "name"));
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        events.add("update " + Meta.metaString(object, "name"));
      }

      @Override
      public void onDelete(MapValue object) {
        events.add("delete " + Meta.metaString(object, "name"));
      }
    });
    informers.start();
    return i;
  }

  private static MapValue configMap(String name, String value) {
    return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"" + name + "\"},\"data\":{\"k\":\"" + value + "\"}}");
  }

  @Test
  void aWriteThroughTheServerIsCachedAndHandledBeforeItReturns() {
    Informer cms = started();
    events.clear();
    MapValue created = configMaps().create(configMap("a", "1"));
    assertThat(cms.get("default", "a")).contains(created);
    MapValue updated = configMaps().update(created.with("data", Json.read("{\"k\":\"2\"}")));
    assertThat(cms.get("default", "a")).contains(updated);
    configMaps().delete("a");
    assertThat(cms.get("default", "a")).isEmpty();
    assertThat(events).containsExactly("add a", "update a", "delete a");
    // the watch brings the same states later: no handler hears of them twice
    assertThat(informers.caughtUp(api.store().currentRevision(), Duration.ofSeconds(30)))
        .isTrue();
    assertThat(events).containsExactly("add a", "update a", "delete a");
  }

  @Test
  void aDryRunIsNotCached() {
    Informer cms = started();
    configMaps().dryRun().create(configMap("b", "1"));
    assertThat(cms.get("default", "b")).isEmpty();
    assertThat(events).doesNotContain("add b");
  }
}
