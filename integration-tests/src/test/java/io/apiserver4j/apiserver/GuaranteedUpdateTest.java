/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchOptions;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Writes to existing objects go through the store's {@code guaranteedUpdate}: one
 * read-modify-write the store may retry, with the pipeline's checks run on each attempt.
 */
class GuaranteedUpdateTest {
  private static final ObjectKey CM = ObjectKey.namespaced("", "configmaps", "default", "cm");

  /**
   * Counts the store calls, and lets a test make another writer change the object after the
   * next read-modify-write has read it and before it writes (the default guaranteedUpdate reads
   * through {@link #get} and writes through {@link #update}).
   */
  private static final class RacingStore implements Store {
    final Store delegate = InMemoryStore.create();
    /** Reads outside a guaranteedUpdate. */
    final AtomicInteger getsOutside = new AtomicInteger();
    private final ThreadLocal<Boolean> inGuaranteedUpdate = ThreadLocal.withInitial(() -> false);
    final AtomicInteger updates = new AtomicInteger();
    final AtomicInteger guaranteedUpdates = new AtomicInteger();
    volatile UnaryOperator<MapValue> racer;

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
      if (!inGuaranteedUpdate.get()) {
        getsOutside.incrementAndGet();
      }
      return delegate.get(key);
    }

    @Override
    public ListResult list(CollectionKey collection, ListOptions options) {
      return delegate.list(collection, options);
    }

    @Override
    public StoredObject create(ObjectKey key, MapValue object) {
      return delegate.create(key, object);
    }

    @Override
    public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
        Preconditions preconditions) {
      updates.incrementAndGet();
      UnaryOperator<MapValue> r = racer;
      racer = null;
      if (r != null) {
        StoredObject now = delegate.get(key).orElseThrow();
        delegate.update(key, r.apply(now.object()), now.resourceVersion());
      }
      return delegate.update(key, object, expectedResourceVersion, preconditions);
    }

    @Override
    public StoredObject guaranteedUpdate(ObjectKey key, Preconditions preconditions,
        UnaryOperator<MapValue> tryUpdate) {
      guaranteedUpdates.incrementAndGet();
      inGuaranteedUpdate.set(true);
      try {
        return Store.super.guaranteedUpdate(key, preconditions, tryUpdate);
      } finally {
        inGuaranteedUpdate.set(false);
      }
    }

    @Override
    public StoredObject delete(ObjectKey key, Preconditions preconditions) {
      return delegate.delete(key, preconditions);
    }

    @Override
    public Watch watch(CollectionKey collection, WatchOptions options) {
      return delegate.watch(collection, options);
    }

    @Override
    public long currentRevision() {
      return delegate.currentRevision();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  private final RacingStore store = new RacingStore();
  private final AtomicInteger validations = new AtomicInteger();
  private volatile boolean refuseUpdates;
  private final Fixtures f = new Fixtures(ApiServer.builder().store(store)
      .admission(AdmissionChain.builder().add(new ValidatingPlugin() {
        @Override
        public String name() {
          return "counting";
        }

        @Override
        public SideEffects sideEffects() {
          return SideEffects.NONE;
        }

        @Override
        public void validate(AdmissionAttributes a) {
          if (a.operation() == Operation.UPDATE) {
            validations.incrementAndGet();
            if (refuseUpdates) {
              throw new NotFoundException(Status.failure(StatusReason.NOT_FOUND,
                  "namespaces \"elsewhere\" not found", StatusDetails.of("elsewhere", "",
                      "namespaces")));
            }
          }
        }
      }).build()));

  private MapValue createCm() {
    return f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {a: "1"}
        """), "test").orThrow();
  }

  private static UnaryOperator<MapValue> setData(String key, String value) {
    return o -> o.with("data", ((MapValue) o.getOrNull("data")).with(key, Value.of(value)));
  }

  @Test
  void aPatchIsOneReadModifyWriteRetriedOnTheNewStateWhenAnotherWriterGotIn() {
    createCm();
    store.getsOutside.set(0);
    store.racer = setData("b", "raced");

    ApiResponse r = f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH,
        "{\"data\":{\"a\":\"2\"}}", "patcher");

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "data", "a")).isEqualTo("2");
    assertThat(str(r.body(), "data", "b")).isEqualTo("raced");
    assertThat(store.guaranteedUpdates).hasValue(1);
    assertThat(store.updates).hasValue(2);
    // every read is the store's own, inside its read-modify-write loop
    assertThat(store.getsOutside).hasValue(0);
    assertThat(validations).hasValue(2);
  }

  @Test
  void aPutAtAResourceVersionThatAnotherWriterMovedOnIsAConflictWithoutRetry() {
    MapValue v1 = createCm();
    store.racer = setData("b", "raced");

    ApiResponse r = f.update(CONFIGMAPS, "default", "cm", v1.with("data", json("{\"a\":\"3\"}")),
        "putter");

    assertThat(r.code()).isEqualTo(409);
    assertThat(str(r.body(), "message")).isEqualTo("Operation cannot be fulfilled on configmaps"
        + " \"cm\": the object has been modified; please apply your changes to the latest version"
        + " and try again");
    assertThat(store.updates).hasValue(1);
    MapValue now = f.get(CONFIGMAPS, "default", "cm").orThrow();
    assertThat(str(now, "data", "a")).isEqualTo("1");
    assertThat(str(now, "data", "b")).isEqualTo("raced");
  }

  @Test
  void aNoOpUpdateKeepsTheResourceVersion() {
    MapValue v1 = createCm();
    long revision = store.currentRevision();

    MapValue same = f.update(CONFIGMAPS, "default", "cm", v1, "test").orThrow();

    assertThat(str(same, "metadata", "resourceVersion"))
        .isEqualTo(str(v1, "metadata", "resourceVersion"));
    assertThat(store.currentRevision()).isEqualTo(revision);
    assertThat(store.guaranteedUpdates).hasValue(1);
  }

  @Test
  void anApplyToAMissingObjectCreatesIt() {
    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "applier", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {a: "1"}
        """);

    assertThat(r.code()).isEqualTo(201);
    assertThat(store.delegate.get(CM)).isPresent();
  }

  @Test
  void aNotFoundFromAdmissionDuringAnApplyIsReturnedNotTakenForAMissingObject() {
    createCm();
    refuseUpdates = true;

    ApiResponse r = f.apply(CONFIGMAPS, "default", "cm", "applier", """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm}
        data: {b: "2"}
        """);

    assertThat(r.code()).isEqualTo(404);
    assertThat(str(r.body(), "message")).isEqualTo("namespaces \"elsewhere\" not found");
    assertThat(str(f.get(CONFIGMAPS, "default", "cm").orThrow(), "data", "a")).isEqualTo("1");
  }

  @Test
  void aDryRunPatchRunsOnceAndWritesNothing() {
    MapValue v1 = createCm();

    ApiResponse r = f.server.handle(Fixtures.req(Verb.PATCH, CONFIGMAPS, "default", "cm")
        .fieldManager("patcher").dryRun(true)
        .patch(PatchType.MERGE_PATCH, "{\"data\":{\"a\":\"2\"}}").build());

    assertThat(r.code()).isEqualTo(200);
    assertThat(str(r.body(), "data", "a")).isEqualTo("2");
    assertThat(store.guaranteedUpdates).hasValue(0);
    assertThat(store.updates).hasValue(0);
    assertThat(f.get(CONFIGMAPS, "default", "cm").orThrow()).isEqualTo(v1);
  }

  @Test
  void deletingAnObjectWithFinalizersMarksItInOneReadModifyWrite() {
    f.create(CONFIGMAPS, "default", yaml("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm, finalizers: [example.com/keep]}
        """), "test").orThrow();

    ApiResponse r = f.delete(CONFIGMAPS, "default", "cm");

    assertThat(r.code()).isEqualTo(200);
    assertThat(store.guaranteedUpdates).hasValue(1);
    MapValue now = f.get(CONFIGMAPS, "default", "cm").orThrow();
    assertThat(str(now, "metadata", "deletionTimestamp")).isNotEmpty();
  }
}
