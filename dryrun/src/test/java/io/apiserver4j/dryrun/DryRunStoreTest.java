/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Dry-run writes against the real in-memory store: same checks, same errors, no effects. */
class DryRunStoreTest {
  private static final ObjectKey A = ObjectKey.namespaced("", "configmaps", "ns", "a");
  private static final ObjectKey MISSING = ObjectKey.namespaced("", "configmaps", "ns", "missing");
  private static final CollectionKey NS = CollectionKey.inNamespace("", "configmaps", "ns");
  private static final Instant NOW = Instant.parse("2024-05-06T07:08:09.5Z");

  private final InMemoryStore store = InMemoryStore.create();
  private final DryRunStore dry = DryRunStore.over(store, InstantSource.fixed(NOW));

  @AfterEach
  void close() {
    store.close();
  }

  private static MapValue cm(String name, String data) {
    return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"" + name + "\",\"namespace\":\"ns\",\"uid\":\"uid-" + name + "\"},"
        + "\"data\":{\"k\":\"" + data + "\"}}");
  }

  /** Everything observable about the store's state. */
  private List<StoredObject> snapshot() {
    return store.list(NS, ListOptions.all()).items();
  }

  /** Runs a real and a dry write that must fail identically, the real one changing nothing. */
  private static <T extends StatusException> void sameFailure(Class<T> type, Executable real,
      Executable dryRun) {
    T expected = catchThrowableOfType(type, () -> {
      try {
        real.execute();
      } catch (Throwable t) {
        throw t instanceof RuntimeException r ? r : new RuntimeException(t);
      }
    });
    T actual = catchThrowableOfType(type, () -> {
      try {
        dryRun.execute();
      } catch (Throwable t) {
        throw t instanceof RuntimeException r ? r : new RuntimeException(t);
      }
    });
    assertThat(expected).as("real store error").isNotNull();
    assertThat(actual).as("dry-run error").isNotNull();
    assertThat(actual.status()).isEqualTo(expected.status());
    assertThat(actual.status().toJson()).isEqualTo(expected.status().toJson());
  }

  @Test
  void createPersistsNothingAndReturnsTheObjectWithoutResourceVersion() {
    long rev = store.currentRevision();
    MapValue out = dry.create(A, cm("a", "1")).object();
    assertThat(out).isEqualTo(cm("a", "1"));
    assertThat(store.get(A)).isEmpty();
    assertThat(store.currentRevision()).isEqualTo(rev);
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void createOfExistingObjectFailsLikeTheRealStore() {
    store.create(A, cm("a", "1"));
    List<StoredObject> before = snapshot();
    sameFailure(AlreadyExistsException.class, () -> store.create(A, cm("a", "2")),
        () -> dry.create(A, cm("a", "2")));
    assertThatThrownBy(() -> dry.create(A, cm("a", "2")))
        .hasMessage("configmaps \"a\" already exists");
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void createWithResourceVersionFailsLikeTheRealStore() {
    MapValue withRv = cm("a", "1").with("metadata", ((MapValue) cm("a", "1").getOrNull("metadata"))
        .with("resourceVersion", Value.of("5")));
    sameFailure(StatusException.class, () -> store.create(A, withRv), () -> dry.create(A, withRv));
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void updateReturnsNewStateWithUnchangedResourceVersionAndPersistsNothing() {
    StoredObject stored = store.create(A, cm("a", "1"));
    long rev = store.currentRevision();
    StoredObject out = dry.update(A, cm("a", "2"), stored.resourceVersion());
    assertThat(out.resourceVersion()).isEqualTo(stored.resourceVersion());
    assertThat(((MapValue) out.object().getOrNull("metadata")).getOrNull("resourceVersion"))
        .isEqualTo(Value.of(stored.resourceVersionString()));
    assertThat(out.object().getOrNull("data")).isEqualTo(MapValue.ofEntries("k", Value.of("2")));
    assertThat(store.get(A)).contains(stored);
    assertThat(store.currentRevision()).isEqualTo(rev);
    // unconditional update too
    assertThat(dry.update(A, cm("a", "3"), Store.ANY_VERSION).resourceVersion())
        .isEqualTo(stored.resourceVersion());
    assertThat(store.get(A)).contains(stored);
  }

  @Test
  void noOpUpdateReturnsTheStoredStateLikeTheRealStore() {
    StoredObject stored = store.create(A, cm("a", "1"));
    assertThat(dry.update(A, cm("a", "1"), stored.resourceVersion())).isEqualTo(stored);
    assertThat(store.update(A, cm("a", "1"), stored.resourceVersion())).isEqualTo(stored);
  }

  @Test
  void updateOfMissingObjectFailsLikeTheRealStore() {
    sameFailure(NotFoundException.class, () -> store.update(MISSING, cm("missing", "1"), 0),
        () -> dry.update(MISSING, cm("missing", "1"), 0));
    sameFailure(NotFoundException.class,
        () -> store.guaranteedUpdate(MISSING, Preconditions.none(), o -> o),
        () -> dry.guaranteedUpdate(MISSING, Preconditions.none(), o -> o));
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void staleResourceVersionConflictsLikeTheRealStore() {
    StoredObject first = store.create(A, cm("a", "1"));
    store.update(A, cm("a", "2"), first.resourceVersion());
    List<StoredObject> before = snapshot();
    sameFailure(ConflictException.class,
        () -> store.update(A, cm("a", "3"), first.resourceVersion()),
        () -> dry.update(A, cm("a", "3"), first.resourceVersion()));
    assertThatThrownBy(() -> dry.update(A, cm("a", "3"), first.resourceVersion()))
        .hasMessage("Operation cannot be fulfilled on configmaps \"a\": the object has been"
            + " modified; please apply your changes to the latest version and try again");
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void preconditionsFailLikeTheRealStore() {
    StoredObject stored = store.create(A, cm("a", "1"));
    List<StoredObject> before = snapshot();
    Preconditions wrongUid = Preconditions.ofUid("other");
    Preconditions wrongRv = Preconditions.ofResourceVersion("999");
    for (Preconditions p : List.of(wrongUid, wrongRv, wrongUid.withResourceVersion("999"))) {
      sameFailure(ConflictException.class,
          () -> store.update(A, cm("a", "2"), stored.resourceVersion(), p),
          () -> dry.update(A, cm("a", "2"), stored.resourceVersion(), p));
      sameFailure(ConflictException.class,
          () -> store.guaranteedUpdate(A, p, o -> cm("a", "2")),
          () -> dry.guaranteedUpdate(A, p, o -> cm("a", "2")));
      sameFailure(ConflictException.class, () -> store.delete(A, p), () -> dry.delete(A, p));
    }
    assertThatThrownBy(() -> dry.delete(A, wrongUid))
        .hasMessage("Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid"
            + " object, Code: 4, Key: /registry/configmaps/ns/a, ResourceVersion: 0,"
            + " AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in"
            + " object meta: uid-a");
    assertThat(snapshot()).isEqualTo(before);
    // matching preconditions pass
    dry.update(A, cm("a", "2"), stored.resourceVersion(),
        Preconditions.ofUid("uid-a").withResourceVersion(stored.resourceVersionString()));
  }

  @Test
  void guaranteedUpdateRunsTheFunctionOnTheCurrentState() {
    StoredObject stored = store.create(A, cm("a", "1"));
    StoredObject out = dry.guaranteedUpdate(A, Preconditions.none(), o -> {
      StringValue k = (StringValue) ((MapValue) o.getOrNull("data")).getOrNull("k");
      return o.with("data", MapValue.ofEntries("k", Value.of("seen-" + k.value())));
    });
    assertThat(out.object().getOrNull("data"))
        .isEqualTo(MapValue.ofEntries("k", Value.of("seen-1")));
    assertThat(out.resourceVersion()).isEqualTo(stored.resourceVersion());
    assertThat(store.get(A)).contains(stored);
  }

  @Test
  void deleteRemovesNothingAndReturnsTheCurrentState() {
    StoredObject stored = store.create(A, cm("a", "1"));
    long rev = store.currentRevision();
    assertThat(dry.delete(A, Preconditions.none())).isEqualTo(stored);
    assertThat(store.get(A)).contains(stored);
    assertThat(store.currentRevision()).isEqualTo(rev);
    sameFailure(NotFoundException.class, () -> store.delete(MISSING, Preconditions.none()),
        () -> dry.delete(MISSING, Preconditions.none()));
  }

  @Test
  void deleteWithFinalizersShowsDeletionButKeepsTheObject() {
    MapValue withFinalizer = cm("a", "1").with("metadata",
        ((MapValue) cm("a", "1").getOrNull("metadata"))
            .with("finalizers", Value.list(Value.of("example.com/cleanup"))));
    StoredObject stored = store.create(A, withFinalizer);
    DeletionPreview preview = dry.delete(A, Preconditions.none(), DeleteSettings.immediate());
    assertThat(preview.outcome()).isEqualTo(DeletionPreview.Outcome.MARKED_FOR_DELETION);
    assertThat(preview.objectStays()).isTrue();
    MapValue meta = (MapValue) preview.object().getOrNull("metadata");
    assertThat(meta.getOrNull("deletionTimestamp")).isEqualTo(Value.of("2024-05-06T07:08:09Z"));
    assertThat(meta.getOrNull("deletionGracePeriodSeconds")).isEqualTo(Value.of(0L));
    assertThat(meta.getOrNull("resourceVersion"))
        .isEqualTo(Value.of(stored.resourceVersionString()));
    assertThat(store.get(A)).contains(stored);

    store.create(ObjectKey.namespaced("", "configmaps", "ns", "b"), cm("b", "1"));
    assertThat(dry.delete(ObjectKey.namespaced("", "configmaps", "ns", "b"), Preconditions.none(),
        DeleteSettings.immediate()).outcome()).isEqualTo(DeletionPreview.Outcome.REMOVED);
    assertThat(snapshot()).hasSize(2);
  }

  @Test
  void dryRunWritesEmitNoWatchEvents() throws Exception {
    StoredObject stored = store.create(A, cm("a", "1"));
    ObjectKey b = ObjectKey.namespaced("", "configmaps", "ns", "b");
    long before = store.currentRevision();
    try (Watch watch = store.watch(NS, WatchOptions.builder().resourceVersion(before)
        .initialEvents(InitialEvents.SKIP).build())) {
      dry.create(b, cm("b", "1"));
      dry.update(A, cm("a", "2"), stored.resourceVersion());
      dry.guaranteedUpdate(A, Preconditions.none(), o -> cm("a", "3"));
      dry.delete(A, Preconditions.none());
      dry.delete(A, Preconditions.none(), DeleteSettings.immediate());
      assertThat(store.currentRevision()).isEqualTo(before);

      StoredObject real = store.create(b, cm("b", "real"));
      Optional<WatchEvent> first = watch.poll(Duration.ofSeconds(5));
      assertThat(first).isPresent();
      assertThat(first.get()).isInstanceOfSatisfying(WatchEvent.ObjectChange.class, e -> {
        assertThat(e.type()).isEqualTo(WatchEvent.Type.ADDED);
        assertThat(e.object()).isEqualTo(real);
        assertThat(e.resourceVersion()).isEqualTo(before + 1);
      });
    }
  }

  @Test
  void readsDelegate() {
    StoredObject stored = store.create(A, cm("a", "1"));
    assertThat(dry.get(A)).contains(stored);
    assertThat(dry.list(NS, ListOptions.all()).items()).containsExactly(stored);
    assertThat(dry.currentRevision()).isEqualTo(store.currentRevision());
    assertThat(dry.delegate()).isSameAs(store);
  }

  @Test
  void negativeExpectedResourceVersionIsAProgrammerError() {
    assertThatThrownBy(() -> dry.update(A, cm("a", "1"), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
