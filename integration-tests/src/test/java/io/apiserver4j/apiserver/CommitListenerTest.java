/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.informer.CommitListener;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.ObjectKey;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CommitListener}: told of every committed write, in the stored form at the write's
 * revision, before the request returns; never of a dry run or a refused request.
 */
class CommitListenerTest {
  private record Commit(ObjectKey key, Optional<MapValue> object, long revision) {}

  private final ApiServer api = ApiServer.builder().build();
  private final List<Commit> commits = new CopyOnWriteArrayList<>();
  private final CommitListener listener = (k, o, r) -> commits.add(new Commit(k, o, r));

  @AfterEach
  void close() {
    api.close();
  }

  private ResourceClient configMaps() {
    return api.resources("v1", "configmaps").namespace("default");
  }

  private static MapValue configMap(String data) {
    return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"a\"},\"data\":" + data + "}");
  }

  @Test
  void aCreateAnUpdateAndADeleteAreToldAsStoredBeforeTheyReturn() {
    api.addCommitListener(listener);
    ObjectKey key = new ObjectKey("", "configmaps", "default", "a");

    MapValue created = configMaps().create(configMap("{\"k\":\"1\"}"));
    assertThat(commits).hasSize(1);
    long createdAt = Long.parseLong(Meta.metaString(created, "resourceVersion"));
    assertThat(commits.get(0)).isEqualTo(new Commit(key,
        Optional.of(api.store().get(key).orElseThrow().object()), createdAt));

    MapValue updated = configMaps().update(created.with("data", Json.read("{\"k\":\"2\"}")));
    long updatedAt = Long.parseLong(Meta.metaString(updated, "resourceVersion"));
    assertThat(commits).hasSize(2);
    assertThat(commits.get(1).revision()).isEqualTo(updatedAt).isGreaterThan(createdAt);
    assertThat(commits.get(1).object()).contains(api.store().get(key).orElseThrow().object());

    configMaps().delete("a");
    assertThat(commits).hasSize(3);
    assertThat(commits.get(2).key()).isEqualTo(key);
    assertThat(commits.get(2).object()).isEmpty();
    assertThat(commits.get(2).revision()).isEqualTo(api.store().currentRevision());
  }

  @Test
  void dryRunsAndRefusedWritesAreNotTold() {
    api.addCommitListener(listener);
    configMaps().dryRun().create(configMap("{\"k\":\"1\"}"));
    // kube: a ConfigMap's data keys must be valid config keys
    assertThatThrownBy(() -> configMaps().create(configMap("{\"a b\":\"1\"}")))
        .isInstanceOf(StatusException.class);
    assertThat(commits).isEmpty();
  }

  @Test
  void aRemovedListenerHearsNothingMoreAndAFailingOneDoesNotFailTheWrite() {
    api.addCommitListener((k, o, r) -> {
      throw new IllegalStateException("a broken follower");
    });
    api.addCommitListener(listener);
    configMaps().create(configMap("{}"));
    assertThat(commits).hasSize(1);
    api.removeCommitListener(listener);
    configMaps().delete("a");
    assertThat(commits).hasSize(1);
    assertThatThrownBy(() -> configMaps().get("a")).isInstanceOf(StatusException.class);
  }
}
