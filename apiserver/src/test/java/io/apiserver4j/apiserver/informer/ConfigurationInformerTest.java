/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.matching.ConfigurationSource.Snapshot;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The informer behind admission's configuration sources, over a store other writers share. */
class ConfigurationInformerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String GROUP = "admissionregistration.k8s.io";
  private static final String RESOURCE = "validatingwebhookconfigurations";

  private final InMemoryStore store = InMemoryStore.create();
  private final ConfigurationInformer informer =
      new ConfigurationInformer(store, CollectionKey.all(GROUP, RESOURCE));

  @AfterEach
  void close() {
    informer.close();
    store.close();
  }

  private static ObjectKey key(String name) {
    return new ObjectKey(GROUP, RESOURCE, "", name);
  }

  private static MapValue config(String name, String label) {
    return MapValue.ofEntries("apiVersion", Value.of(GROUP + "/v1"),
        "kind", Value.of("ValidatingWebhookConfiguration"),
        "metadata", MapValue.ofEntries("name", Value.of(name),
            "labels", MapValue.ofEntries("v", Value.of(label))));
  }

  private static List<String> names(Snapshot s) {
    return s.objects().stream().map(o -> Meta.metaString(o, "name") + "="
        + Meta.labels(o).get("v")).toList();
  }

  @Test
  void listsAtStartThenFollowsOtherWritersThroughTheWatch() {
    store.create(key("b"), config("b", "1"));
    store.create(key("a"), config("a", "1"));
    informer.start();
    assertThat(names(informer.snapshot())).containsExactly("a=1", "b=1");

    StoredObject c = store.create(key("c"), config("c", "1"));
    assertThat(informer.awaitRevision(c.resourceVersion(), WAIT)).isTrue();
    assertThat(names(informer.snapshot())).containsExactly("a=1", "b=1", "c=1");

    StoredObject a2 = store.update(key("a"), config("a", "2"), 0);
    assertThat(informer.awaitRevision(a2.resourceVersion(), WAIT)).isTrue();
    assertThat(names(informer.snapshot())).containsExactly("a=2", "b=1", "c=1");

    StoredObject gone = store.delete(key("b"), Preconditions.none());
    assertThat(informer.awaitRevision(store.currentRevision(), WAIT)).isTrue();
    assertThat(gone.key().name()).isEqualTo("b");
    assertThat(names(informer.snapshot())).containsExactly("a=2", "c=1");
  }

  @Test
  void ownWritesAreVisibleAtOnceAndTheWatchsLateCopyChangesNothing() {
    informer.start();
    StoredObject a = store.create(key("a"), config("a", "1"));
    informer.refresh(key("a"));
    Snapshot afterWrite = informer.snapshot();
    assertThat(names(afterWrite)).containsExactly("a=1");

    assertThat(informer.awaitRevision(a.resourceVersion(), WAIT)).isTrue();
    // the same objects: the snapshot (and everything derived from it) is kept
    assertThat(informer.snapshot()).isSameAs(afterWrite);

    store.delete(key("a"), Preconditions.none());
    long deletedAt = store.currentRevision();
    informer.deleted(key("a"), deletedAt);
    assertThat(informer.snapshot().objects()).isEmpty();
    assertThat(informer.awaitRevision(deletedAt, WAIT)).isTrue();
    assertThat(informer.snapshot().objects()).isEmpty();
  }

  @Test
  void derivedViewsAreComputedOncePerSnapshot() {
    informer.start();
    int[] computed = new int[1];
    var names = informer.derived(s -> {
      computed[0]++;
      return names(s);
    });
    assertThat(names.get()).isEmpty();
    assertThat(names.get()).isEmpty();
    assertThat(computed[0]).isEqualTo(1);
    store.create(key("a"), config("a", "1"));
    informer.refresh(key("a"));
    assertThat(names.get()).containsExactly("a=1");
    assertThat(computed[0]).isEqualTo(2);
  }
}
