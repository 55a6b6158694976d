/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.errors.TimeoutException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.core.labels.LabelSelector;
import io.apiserver4j.storage.WatchEvent.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Store} implementation must pass. Subclass it in the implementation's
 * test sources (it ships in the {@code apiserver4j-storage} test-jar) and provide a fresh, empty,
 * isolated store per test.
 *
 * <p>Revisions are only compared relative to each other, so stores whose revision counter is
 * shared (etcd) pass too. Waiting uses timeouts only; ordering never relies on sleeps.
 */
public abstract class StoreContractTest {
  /** Upper bound for waiting on an event that must arrive. */
  protected static final Duration EVENT_TIMEOUT = Duration.ofSeconds(20);
  /** How long to wait to conclude that no event arrives. */
  protected static final Duration QUIET_PERIOD = Duration.ofMillis(200);

  protected static final String NS = "default";

  protected ManualClock clock;
  protected Store store;

  /**
   * A new empty store that uses {@code clock} for bookmark intervals. Each call must return a
   * store isolated from the others.
   */
  protected abstract Store newStore(InstantSource clock);

  /**
   * Compacts the store's history so that every revision up to and including {@code revision}
   * is gone: watches from before it and continue tokens issued before it get 410 Expired.
   */
  protected abstract void compact(Store store, long revision);

  @BeforeEach
  public void setUpStore() {
    clock = new ManualClock();
    store = newStore(clock);
  }

  @AfterEach
  public void closeStore() {
    store.close();
  }

  // ------------------------------------------------------------------ helpers

  protected static ObjectKey cmKey(String namespace, String name) {
    return ObjectKey.namespaced("", "configmaps", namespace, name);
  }

  protected static CollectionKey configMaps(String namespace) {
    return namespace.isEmpty()
        ? CollectionKey.all("", "configmaps")
        : CollectionKey.inNamespace("", "configmaps", namespace);
  }

  protected static MapValue configMap(String namespace, String name, Map<String, String> labels,
      Map<String, String> data) {
    MapValue.Builder meta = MapValue.builder()
        .put("name", Value.of(name))
        .put("namespace", Value.of(namespace))
        .put("uid", Value.of("uid-" + namespace + "-" + name));
    if (!labels.isEmpty()) {
      meta.put("labels", stringMap(labels));
    }
    return MapValue.builder()
        .put("apiVersion", Value.of("v1"))
        .put("kind", Value.of("ConfigMap"))
        .put("metadata", meta.build())
        .put("data", stringMap(data))
        .build();
  }

  protected static MapValue configMap(String namespace, String name) {
    return configMap(namespace, name, Map.of(), Map.of("k", "v"));
  }

  protected static MapValue configMap(String namespace, String name, Map<String, String> labels) {
    return configMap(namespace, name, labels, Map.of("k", "v"));
  }

  private static MapValue stringMap(Map<String, String> m) {
    MapValue.Builder b = MapValue.builder();
    new java.util.TreeMap<>(m).forEach((k, v) -> b.put(k, Value.of(v)));
    return b.build();
  }

  protected static MapValue withData(MapValue object, String key, String value) {
    MapValue data = (MapValue) object.getOrNull("data");
    return object.with("data", data.with(key, Value.of(value)));
  }

  protected static MapValue withLabels(MapValue object, Map<String, String> labels) {
    MapValue meta = (MapValue) object.getOrNull("metadata");
    return object.with("metadata", meta.with("labels", stringMap(labels)));
  }

  protected static String data(StoredObject o, String key) {
    return ((StringValue) ((MapValue) o.object().getOrNull("data")).getOrNull(key)).value();
  }

  protected static String metaString(MapValue object, String field) {
    Value v = ((MapValue) object.getOrNull("metadata")).getOrNull(field);
    return v instanceof StringValue s ? s.value() : null;
  }

  protected static List<String> names(ListResult r) {
    return r.items().stream().map(o -> o.key().relativeKey()).collect(Collectors.toList());
  }

  protected static WatchEvent next(Watch w) throws InterruptedException {
    Optional<WatchEvent> e = w.poll(EVENT_TIMEOUT);
    assertThat(e).as("an event within %s", EVENT_TIMEOUT).isPresent();
    return e.get();
  }

  protected static WatchEvent.ObjectChange nextChange(Watch w) throws InterruptedException {
    WatchEvent e = next(w);
    assertThat(e).isInstanceOf(WatchEvent.ObjectChange.class);
    return (WatchEvent.ObjectChange) e;
  }

  protected static void assertChange(WatchEvent e, Type type, String relativeKey, long rv) {
    assertThat(e).isInstanceOf(WatchEvent.ObjectChange.class);
    WatchEvent.ObjectChange c = (WatchEvent.ObjectChange) e;
    assertThat(c.type()).isEqualTo(type);
    assertThat(c.object().key().relativeKey()).isEqualTo(relativeKey);
    assertThat(c.object().resourceVersion()).isEqualTo(rv);
    assertThat(metaString(c.object().object(), "resourceVersion")).isEqualTo(Long.toString(rv));
  }

  protected static void assertQuiet(Watch w) throws InterruptedException {
    Optional<WatchEvent> e = w.poll(QUIET_PERIOD);
    assertThat(e).as("no event expected").isEmpty();
  }

  protected static WatchOptions fromNowWithoutState() {
    return WatchOptions.builder().initialEvents(InitialEvents.SKIP).build();
  }

  // ------------------------------------------------------------------ create / get

  @Test
  public void createStampsTheNextRevisionAndGetReturnsIt() {
    long before = store.currentRevision();
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    assertThat(created.resourceVersion()).isGreaterThan(before);
    assertThat(store.currentRevision()).isEqualTo(created.resourceVersion());
    assertThat(created.key()).isEqualTo(cmKey(NS, "a"));
    assertThat(metaString(created.object(), "resourceVersion"))
        .isEqualTo(Long.toString(created.resourceVersion()));
    assertThat(created.object().without("metadata"))
        .isEqualTo(configMap(NS, "a").without("metadata"));
    assertThat(store.get(cmKey(NS, "a"))).contains(created);
  }

  @Test
  public void getOfAMissingKeyIsEmpty() {
    assertThat(store.get(cmKey(NS, "missing"))).isEmpty();
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    assertThat(store.get(cmKey("other", "a"))).isEmpty();
    assertThat(store.get(ObjectKey.namespaced("", "secrets", NS, "a"))).isEmpty();
  }

  @Test
  public void createOfAnExistingKeyIsAlreadyExists() {
    StoredObject first = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long rev = store.currentRevision();
    assertThatThrownBy(() -> store.create(cmKey(NS, "a"), configMap(NS, "a")))
        .isInstanceOfSatisfying(AlreadyExistsException.class, e -> {
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.reason()).isEqualTo(StatusReason.ALREADY_EXISTS);
          assertThat(e.getMessage()).isEqualTo("configmaps \"a\" already exists");
          assertThat(e.status().details()).contains(StatusDetails.of("a", "", "configmaps"));
        });
    assertThat(store.currentRevision()).isEqualTo(rev);
    assertThat(store.get(cmKey(NS, "a"))).contains(first);
  }

  @Test
  public void createRefusesAnObjectCarryingAResourceVersion() {
    MapValue obj = configMap(NS, "a");
    MapValue withRv = obj.with("metadata",
        ((MapValue) obj.getOrNull("metadata")).with("resourceVersion", Value.of("42")));
    assertThatThrownBy(() -> store.create(cmKey(NS, "a"), withRv))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(500);
          assertThat(e.getMessage())
              .isEqualTo("resourceVersion should not be set on objects to be created");
        });
    assertThat(store.get(cmKey(NS, "a"))).isEmpty();
    MapValue zeroRv = obj.with("metadata",
        ((MapValue) obj.getOrNull("metadata")).with("resourceVersion", Value.of("0")));
    StoredObject created = store.create(cmKey(NS, "a"), zeroRv);
    assertThat(metaString(created.object(), "resourceVersion"))
        .isEqualTo(Long.toString(created.resourceVersion()));
  }

  @Test
  public void errorsNameTheGroupQualifiedResource() {
    ObjectKey key = ObjectKey.namespaced("apps", "deployments", NS, "d");
    assertThatThrownBy(() -> store.update(key, MapValue.empty(), Store.ANY_VERSION))
        .isInstanceOfSatisfying(NotFoundException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("deployments.apps \"d\" not found");
          assertThat(e.status().details()).contains(StatusDetails.of("d", "apps", "deployments"));
        });
    StoredObject d = store.create(key,
        MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of("d"))));
    assertThatThrownBy(() -> store.update(key, MapValue.empty(), d.resourceVersion() + 1))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage())
            .isEqualTo("Operation cannot be fulfilled on deployments.apps \"d\": the object has "
                + "been modified; please apply your changes to the latest version and try again"));
  }

  @Test
  public void clusterScopedObjectsAreStoredWithoutNamespace() {
    ObjectKey node = ObjectKey.clusterScoped("", "nodes", "n1");
    StoredObject created = store.create(node,
        MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of("n1"))));
    assertThat(store.get(node)).contains(created);
    assertThat(names(store.list(CollectionKey.all("", "nodes"), ListOptions.all())))
        .containsExactly("n1");
  }

  // ------------------------------------------------------------------ update

  @Test
  public void updateWithTheCurrentResourceVersionWrites() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject updated = store.update(cmKey(NS, "a"),
        withData(created.object(), "k", "v2"), created.resourceVersion());
    assertThat(updated.resourceVersion()).isGreaterThan(created.resourceVersion());
    assertThat(data(updated, "k")).isEqualTo("v2");
    assertThat(metaString(updated.object(), "resourceVersion"))
        .isEqualTo(updated.resourceVersionString());
    assertThat(store.get(cmKey(NS, "a"))).contains(updated);
    assertThat(store.currentRevision()).isEqualTo(updated.resourceVersion());
  }

  @Test
  public void updateWithAStaleResourceVersionIsAConflictAndChangesNothing() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject updated = store.update(cmKey(NS, "a"), withData(created.object(), "k", "v2"),
        created.resourceVersion());
    assertThatThrownBy(() -> store.update(cmKey(NS, "a"), withData(created.object(), "k", "v3"),
        created.resourceVersion()))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.reason()).isEqualTo(StatusReason.CONFLICT);
          assertThat(e.getMessage()).isEqualTo("Operation cannot be fulfilled on configmaps \"a\": "
              + "the object has been modified; please apply your changes to the latest version "
              + "and try again");
          assertThat(e.status().details()).contains(StatusDetails.of("a", "", "configmaps"));
        });
    assertThat(store.get(cmKey(NS, "a"))).contains(updated);
    assertThat(store.currentRevision()).isEqualTo(updated.resourceVersion());
  }

  @Test
  public void updateOfAMissingKeyIsNotFound() {
    assertThatThrownBy(() -> store.update(cmKey(NS, "x"), configMap(NS, "x"), 5))
        .isInstanceOfSatisfying(NotFoundException.class, e -> {
          assertThat(e.code()).isEqualTo(404);
          assertThat(e.getMessage()).isEqualTo("configmaps \"x\" not found");
          assertThat(e.status().details()).contains(StatusDetails.of("x", "", "configmaps"));
        });
    assertThatThrownBy(() -> store.update(cmKey(NS, "x"), configMap(NS, "x"), Store.ANY_VERSION))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  public void unconditionalUpdateWritesWhateverTheCurrentVersion() {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject updated = store.update(cmKey(NS, "a"),
        withData(configMap(NS, "a"), "k", "any"), Store.ANY_VERSION);
    assertThat(data(updated, "k")).isEqualTo("any");
  }

  @Test
  public void updateToAnIdenticalObjectKeepsTheResourceVersion() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long rev = store.currentRevision();
    StoredObject same = store.update(cmKey(NS, "a"), configMap(NS, "a"), created.resourceVersion());
    assertThat(same).isEqualTo(created);
    assertThat(store.currentRevision()).isEqualTo(rev);
  }

  @Test
  public void updateChecksPreconditions() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    assertThatThrownBy(() -> store.update(cmKey(NS, "a"), withData(created.object(), "k", "x"),
        created.resourceVersion(), Preconditions.ofUid("other")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage())
            .isEqualTo("Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid "
                + "object, Code: 4, Key: /registry/configmaps/default/a, ResourceVersion: 0, "
                + "AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in "
                + "object meta: uid-default-a"));
    StoredObject updated = store.update(cmKey(NS, "a"), withData(created.object(), "k", "x"),
        created.resourceVersion(), Preconditions.ofUid("uid-default-a"));
    assertThat(data(updated, "k")).isEqualTo("x");
  }

  @Test
  public void guaranteedUpdateAppliesTheFunctionToTheCurrentState() {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject updated = store.guaranteedUpdate(cmKey(NS, "a"), Preconditions.none(),
        o -> withData(o, "k", "g"));
    assertThat(data(updated, "k")).isEqualTo("g");
    assertThatThrownBy(() -> store.guaranteedUpdate(cmKey(NS, "zz"), Preconditions.none(), o -> o))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.guaranteedUpdate(cmKey(NS, "a"), Preconditions.ofUid("nope"),
        o -> o)).isInstanceOf(ConflictException.class);
  }

  // ------------------------------------------------------------------ delete

  @Test
  public void deleteReturnsTheLastStateAtTheDeletionRevision() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject deleted = store.delete(cmKey(NS, "a"), Preconditions.none());
    assertThat(deleted.resourceVersion()).isGreaterThan(created.resourceVersion());
    assertThat(store.currentRevision()).isEqualTo(deleted.resourceVersion());
    assertThat(metaString(deleted.object(), "resourceVersion"))
        .isEqualTo(deleted.resourceVersionString());
    assertThat(deleted.object().without("metadata"))
        .isEqualTo(created.object().without("metadata"));
    assertThat(store.get(cmKey(NS, "a"))).isEmpty();
    assertThatThrownBy(() -> store.delete(cmKey(NS, "a"), Preconditions.none()))
        .isInstanceOfSatisfying(NotFoundException.class, e ->
            assertThat(e.getMessage()).isEqualTo("configmaps \"a\" not found"));
  }

  @Test
  public void deleteOfAMissingKeyIsNotFound() {
    assertThatThrownBy(() -> store.delete(cmKey(NS, "nope"), Preconditions.none()))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  public void deleteChecksTheUidPrecondition() {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long rev = store.currentRevision();
    assertThatThrownBy(() -> store.delete(cmKey(NS, "a"), Preconditions.ofUid("other")))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.getMessage()).isEqualTo("Operation cannot be fulfilled on configmaps \"a\": "
              + "StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/a, "
              + "ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in "
              + "precondition: other, UID in object meta: uid-default-a");
        });
    assertThat(store.currentRevision()).isEqualTo(rev);
    assertThat(store.get(cmKey(NS, "a"))).isPresent();
    store.delete(cmKey(NS, "a"), Preconditions.ofUid("uid-default-a"));
    assertThat(store.get(cmKey(NS, "a"))).isEmpty();
  }

  @Test
  public void deleteChecksTheResourceVersionPrecondition() {
    StoredObject created = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    assertThatThrownBy(() -> store.delete(cmKey(NS, "a"), Preconditions.ofResourceVersion("1")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage())
            .endsWith("AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: "
                + "1, ResourceVersion in object meta: " + created.resourceVersion()));
    store.delete(cmKey(NS, "a"),
        Preconditions.ofResourceVersion(created.resourceVersionString()).withUid("uid-default-a"));
    assertThat(store.get(cmKey(NS, "a"))).isEmpty();
  }

  @Test
  public void aDeletedKeyCanBeCreatedAgain() {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    StoredObject deleted = store.delete(cmKey(NS, "a"), Preconditions.none());
    StoredObject again = store.create(cmKey(NS, "a"), withData(configMap(NS, "a"), "k", "2"));
    assertThat(again.resourceVersion()).isGreaterThan(deleted.resourceVersion());
    assertThat(store.get(cmKey(NS, "a"))).contains(again);
  }

  // ------------------------------------------------------------------ revisions

  @Test
  public void revisionsIncreaseWithEveryWrite() {
    List<Long> revisions = new ArrayList<>();
    revisions.add(store.currentRevision());
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    revisions.add(a.resourceVersion());
    revisions.add(store.create(cmKey("x", "b"), configMap("x", "b")).resourceVersion());
    revisions.add(store.update(cmKey(NS, "a"), withData(a.object(), "k", "2"),
        a.resourceVersion()).resourceVersion());
    revisions.add(store.delete(cmKey("x", "b"), Preconditions.none()).resourceVersion());
    assertThat(revisions).isSorted().doesNotHaveDuplicates();
    assertThat(store.currentRevision()).isEqualTo(revisions.get(revisions.size() - 1));
    // failed writes do not advance the revision
    assertThatThrownBy(() -> store.create(cmKey(NS, "a"), configMap(NS, "a")))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(store.currentRevision()).isEqualTo(revisions.get(revisions.size() - 1));
  }

  // ------------------------------------------------------------------ list

  private void seedNamespaces() {
    store.create(cmKey("b", "two"), configMap("b", "two", Map.of("app", "web", "tier", "front")));
    store.create(cmKey("a", "one"), configMap("a", "one", Map.of("app", "web")));
    store.create(cmKey("a-b", "x"), configMap("a-b", "x", Map.of("app", "db")));
    store.create(cmKey("a", "three"), configMap("a", "three", Map.of("app", "db", "tier", "back")));
    store.create(cmKey("b", "four"), configMap("b", "four"));
  }

  @Test
  public void listCoversAllNamespacesInKeyOrder() {
    seedNamespaces();
    ListResult all = store.list(configMaps(""), ListOptions.all());
    // etcd key order: "a-b/" sorts before "a/" because '-' < '/'
    assertThat(names(all)).containsExactly("a-b/x", "a/one", "a/three", "b/four", "b/two");
    assertThat(all.resourceVersion()).isEqualTo(store.currentRevision());
    assertThat(all.continueToken()).isEmpty();
    assertThat(all.remainingItemCount()).isEmpty();
    for (StoredObject o : all.items()) {
      assertThat(store.get(o.key())).contains(o);
    }
  }

  @Test
  public void listWithinANamespace() {
    seedNamespaces();
    assertThat(names(store.list(configMaps("a"), ListOptions.all())))
        .containsExactly("a/one", "a/three");
    assertThat(names(store.list(configMaps("b"), ListOptions.all())))
        .containsExactly("b/four", "b/two");
    assertThat(store.list(configMaps("empty"), ListOptions.all()).items()).isEmpty();
    assertThat(store.list(CollectionKey.all("", "secrets"), ListOptions.all()).items()).isEmpty();
  }

  @Test
  public void listOmitsDeletedObjects() {
    seedNamespaces();
    store.delete(cmKey("a", "one"), Preconditions.none());
    assertThat(names(store.list(configMaps("a"), ListOptions.all()))).containsExactly("a/three");
  }

  @Test
  public void listFiltersByLabelSelector() {
    seedNamespaces();
    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put("app=web", List.of("a/one", "b/two"));
    cases.put("app==db", List.of("a-b/x", "a/three"));
    cases.put("app!=web", List.of("a-b/x", "a/three", "b/four"));
    cases.put("app in (db, web),tier", List.of("a/three", "b/two"));
    cases.put("app notin (web)", List.of("a-b/x", "a/three", "b/four"));
    cases.put("tier", List.of("a/three", "b/two"));
    cases.put("!tier", List.of("a-b/x", "a/one", "b/four"));
    cases.put("app=web,tier=front", List.of("b/two"));
    cases.put("", List.of("a-b/x", "a/one", "a/three", "b/four", "b/two"));
    cases.forEach((selector, expected) -> assertThat(names(store.list(configMaps(""),
        ListOptions.builder().labelSelector(LabelSelector.parse(selector)).build())))
        .as(selector).containsExactlyElementsOf(expected));
  }

  @Test
  public void listFiltersByFieldSelector() {
    seedNamespaces();
    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put("metadata.name=one", List.of("a/one"));
    cases.put("metadata.namespace=b", List.of("b/four", "b/two"));
    cases.put("metadata.namespace!=b", List.of("a-b/x", "a/one", "a/three"));
    cases.put("metadata.namespace==a,metadata.name!=one", List.of("a/three"));
    cases.put("data.k=v", List.of("a-b/x", "a/one", "a/three", "b/four", "b/two"));
    cases.put("data.missing=", List.of("a-b/x", "a/one", "a/three", "b/four", "b/two"));
    cases.put("data.k=other", List.of());
    cases.forEach((selector, expected) -> assertThat(names(store.list(configMaps(""),
        ListOptions.builder().fieldSelector(FieldSelector.parse(selector)).build())))
        .as(selector).containsExactlyElementsOf(expected));
  }

  @Test
  public void listAtAnExactOlderRevisionShowsThatState() {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long rv = a.resourceVersion();
    store.update(cmKey(NS, "a"), withData(a.object(), "k", "new"), rv);
    store.create(cmKey(NS, "b"), configMap(NS, "b"));
    ListResult old = store.list(configMaps(NS), ListOptions.builder().exact(rv).build());
    assertThat(old.resourceVersion()).isEqualTo(rv);
    assertThat(old.items()).containsExactly(a);
    ListResult now = store.list(configMaps(NS), ListOptions.builder().notOlderThan(rv).build());
    assertThat(now.resourceVersion()).isEqualTo(store.currentRevision());
    assertThat(names(now)).containsExactly("default/a", "default/b");
    assertThat(data(now.items().get(0), "k")).isEqualTo("new");
    ListResult any = store.list(configMaps(NS), ListOptions.builder().notOlderThan(0).build());
    assertThat(any.resourceVersion()).isGreaterThanOrEqualTo(now.resourceVersion());
  }

  @Test
  public void anObjectThatCouldNotBeReadBackIsNeverStored() {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    MapValue nan = configMap(NS, "nan").with("spec", io.apiserver4j.core.Value.of(Double.NaN));
    assertThatThrownBy(() -> store.create(cmKey(NS, "nan"), nan))
        .isInstanceOfSatisfying(io.apiserver4j.core.errors.StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(500);
          // what Go's encoding/json says of it
          assertThat(e.getMessage()).contains("json: unsupported value: NaN");
        });
    assertThat(store.get(cmKey(NS, "nan"))).isEmpty();
    io.apiserver4j.core.Value deep = io.apiserver4j.core.Value.of(1L);
    for (int i = 0; i < io.apiserver4j.core.DecodeLimits.MAX_DEPTH; i++) {
      deep = io.apiserver4j.core.ListValue.of(List.of(deep));
    }
    MapValue tooDeep = a.object().with("spec", deep);
    assertThatThrownBy(() -> store.update(cmKey(NS, "a"), tooDeep, a.resourceVersion()))
        .isInstanceOfSatisfying(io.apiserver4j.core.errors.StatusException.class,
            e -> assertThat(e.code()).isEqualTo(500));
    assertThat(store.get(cmKey(NS, "a")).orElseThrow().resourceVersion())
        .isEqualTo(a.resourceVersion());
    assertThat(store.list(configMaps(NS), ListOptions.all()).items()).hasSize(1);
  }

  @Test
  public void listAtAFutureRevisionIsATimeout() {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long future = store.currentRevision() + 100;
    for (ListOptions options : List.of(ListOptions.builder().notOlderThan(future).build(),
        ListOptions.builder().exact(future).build())) {
      assertThatThrownBy(() -> store.list(configMaps(NS), options))
          .isInstanceOfSatisfying(TimeoutException.class, e -> {
            assertThat(e.code()).isEqualTo(504);
            assertThat(e.getMessage()).startsWith("Timeout: Too large resource version: " + future
                + ", current: ");
            assertThat(e.status().causes()).extracting(c -> c.type())
                .containsExactly("ResourceVersionTooLarge");
          });
    }
  }

  @Test
  public void listAtACompactedRevisionIsExpired() {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    store.update(cmKey(NS, "a"), withData(a.object(), "k", "2"), a.resourceVersion());
    compact(store, store.currentRevision());
    assertThatThrownBy(() -> store.list(configMaps(NS),
        ListOptions.builder().exact(a.resourceVersion()).build()))
        .isInstanceOfSatisfying(GoneException.class, e -> {
          assertThat(e.code()).isEqualTo(410);
          assertThat(e.reason()).isEqualTo(StatusReason.EXPIRED);
          assertThat(e.getMessage()).isEqualTo("The resourceVersion for the provided list is too old.");
        });
  }

  // ------------------------------------------------------------------ pagination

  private List<StoredObject> seedNumbered(int n) {
    List<StoredObject> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = "o" + i;
      out.add(store.create(cmKey(NS, name), configMap(NS, name, Map.of("parity",
          i % 2 == 0 ? "even" : "odd"))));
    }
    return out;
  }

  @Test
  public void pagesFollowEachOtherWithRemainingCounts() {
    seedNumbered(5);
    ListOptions first = ListOptions.builder().limit(2).build();
    ListResult p1 = store.list(configMaps(NS), first);
    assertThat(names(p1)).containsExactly("default/o0", "default/o1");
    assertThat(p1.continueToken()).isPresent();
    assertThat(p1.remainingItemCount()).contains(3L);
    ListResult p2 = store.list(configMaps(NS),
        first.toBuilder().continueToken(p1.continueToken().get()).build());
    assertThat(names(p2)).containsExactly("default/o2", "default/o3");
    assertThat(p2.remainingItemCount()).contains(1L);
    assertThat(p2.resourceVersion()).isEqualTo(p1.resourceVersion());
    ListResult p3 = store.list(configMaps(NS),
        first.toBuilder().continueToken(p2.continueToken().get()).build());
    assertThat(names(p3)).containsExactly("default/o4");
    assertThat(p3.continueToken()).isEmpty();
    assertThat(p3.remainingItemCount()).isEmpty();
    assertThat(p3.resourceVersion()).isEqualTo(p1.resourceVersion());
  }

  @Test
  public void aPageThatEndsExactlyAtTheLastObjectHasNoContinueToken() {
    seedNumbered(2);
    ListResult p = store.list(configMaps(NS), ListOptions.builder().limit(2).build());
    assertThat(names(p)).hasSize(2);
    assertThat(p.continueToken()).isEmpty();
    assertThat(p.remainingItemCount()).isEmpty();
  }

  @Test
  public void continueTokensUseKubesWireFormat() {
    List<StoredObject> seeded = seedNumbered(3);
    ListResult all = store.list(configMaps(""), ListOptions.builder().limit(1).build());
    Value token = Json.read(new String(Base64.getUrlDecoder().decode(all.continueToken().get()),
        StandardCharsets.UTF_8));
    assertThat(Json.write(token)).isEqualTo("{\"v\":\"meta.k8s.io/v1\",\"rv\":"
        + seeded.get(2).resourceVersion() + ",\"start\":\"default/o0\\u0000\"}");
    assertThat(all.continueToken().get()).doesNotContain("=", "+", "/");
    ListResult ns = store.list(configMaps(NS), ListOptions.builder().limit(1).build());
    Value nsToken = Json.read(Base64.getUrlDecoder().decode(ns.continueToken().get()));
    assertThat(((MapValue) nsToken).getOrNull("start")).isEqualTo(Value.of("o0\u0000"));
  }

  @Test
  public void laterPagesShowTheFirstPagesSnapshot() {
    List<StoredObject> seeded = seedNumbered(5);
    ListOptions first = ListOptions.builder().limit(2).build();
    ListResult p1 = store.list(configMaps(NS), first);
    // writes between pages: a new object that sorts into the rest, a change and a delete there
    store.create(cmKey(NS, "o35"), configMap(NS, "o35"));
    store.update(cmKey(NS, "o3"), withData(seeded.get(3).object(), "k", "changed"),
        seeded.get(3).resourceVersion());
    store.delete(cmKey(NS, "o4"), Preconditions.none());
    ListResult rest = store.list(configMaps(NS),
        first.toBuilder().limit(10).continueToken(p1.continueToken().get()).build());
    assertThat(rest.items()).containsExactly(seeded.get(2), seeded.get(3), seeded.get(4));
    assertThat(rest.resourceVersion()).isEqualTo(p1.resourceVersion());
    assertThat(rest.continueToken()).isEmpty();
  }

  @Test
  public void pagesWithSelectorsFillUpToTheLimitAndOmitRemainingCount() {
    seedNumbered(7);
    ListOptions first = ListOptions.builder().limit(2)
        .labelSelector(LabelSelector.parse("parity=even")).build();
    ListResult p1 = store.list(configMaps(NS), first);
    assertThat(names(p1)).containsExactly("default/o0", "default/o2");
    assertThat(p1.continueToken()).isPresent();
    assertThat(p1.remainingItemCount()).isEmpty();
    ListResult p2 = store.list(configMaps(NS),
        first.toBuilder().continueToken(p1.continueToken().get()).build());
    assertThat(names(p2)).containsExactly("default/o4", "default/o6");
    assertThat(p2.continueToken()).isEmpty();
  }

  @Test
  public void aMalformedContinueTokenIsABadRequest() {
    seedNumbered(1);
    for (String bad : List.of("not base64!", token("{\"v\":\"meta.k8s.io/v2\",\"rv\":3,\"start\":\"a\"}"),
        token("{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}"),
        token("{\"v\":\"meta.k8s.io/v1\",\"rv\":3,\"start\":\"\"}"),
        token("{\"v\":\"meta.k8s.io/v1\",\"rv\":3,\"start\":\"../secrets/x\"}"), token("[]"))) {
      assertThatThrownBy(() -> store.list(configMaps(NS),
          ListOptions.builder().limit(1).continueToken(bad).build()))
          .as(bad)
          .isInstanceOfSatisfying(BadRequestException.class, e -> {
            assertThat(e.code()).isEqualTo(400);
            assertThat(e.getMessage()).startsWith("invalid continue token: continue key is not valid");
          });
    }
  }

  @Test
  public void aContinueTokenWithAResourceVersionIsABadRequest() {
    seedNumbered(3);
    ListResult p1 = store.list(configMaps(NS), ListOptions.builder().limit(1).build());
    assertThatThrownBy(() -> store.list(configMaps(NS), ListOptions.builder().limit(1)
        .continueToken(p1.continueToken().get()).exact(p1.resourceVersion()).build()))
        .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage())
            .isEqualTo("specifying resource version is not allowed when using continue"));
  }

  @Test
  public void aContinueTokenOlderThanTheCompactionIsExpired() {
    List<StoredObject> seeded = seedNumbered(3);
    ListResult p1 = store.list(configMaps(NS), ListOptions.builder().limit(1).build());
    store.update(cmKey(NS, "o1"), withData(seeded.get(1).object(), "k", "x"),
        seeded.get(1).resourceVersion());
    compact(store, store.currentRevision());
    assertThatThrownBy(() -> store.list(configMaps(NS), ListOptions.builder().limit(1)
        .continueToken(p1.continueToken().get()).build()))
        .isInstanceOfSatisfying(GoneException.class, e -> {
          assertThat(e.code()).isEqualTo(410);
          assertThat(e.reason()).isEqualTo(StatusReason.EXPIRED);
          assertThat(e.getMessage()).startsWith("The provided continue parameter is too old to "
              + "display a consistent list result.");
        });
  }

  protected static String token(String json) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  // ------------------------------------------------------------------ watch

  @Test
  public void watchFromNowDeliversChangesInOrder() throws Exception {
    store.create(cmKey(NS, "before"), configMap(NS, "before"));
    try (Watch w = store.watch(configMaps(""), fromNowWithoutState())) {
      StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
      StoredObject a2 = store.update(cmKey(NS, "a"), withData(a.object(), "k", "2"),
          a.resourceVersion());
      StoredObject gone = store.delete(cmKey(NS, "a"), Preconditions.none());
      assertChange(next(w), Type.ADDED, "default/a", a.resourceVersion());
      WatchEvent.ObjectChange modified = nextChange(w);
      assertChange(modified, Type.MODIFIED, "default/a", a2.resourceVersion());
      assertThat(modified.object()).isEqualTo(a2);
      WatchEvent.ObjectChange deleted = nextChange(w);
      assertChange(deleted, Type.DELETED, "default/a", gone.resourceVersion());
      assertThat(deleted.object()).isEqualTo(gone);
      assertQuiet(w);
    }
  }

  @Test
  public void watchFromZeroStartsWithSyntheticAddedEvents() throws Exception {
    StoredObject b = store.create(cmKey(NS, "b"), configMap(NS, "b"));
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    try (Watch w = store.watch(configMaps(NS), WatchOptions.fromNow())) {
      WatchEvent.ObjectChange first = nextChange(w);
      assertChange(first, Type.ADDED, "default/a", a.resourceVersion());
      assertThat(first.object()).isEqualTo(a);
      assertChange(next(w), Type.ADDED, "default/b", b.resourceVersion());
      StoredObject c = store.create(cmKey(NS, "c"), configMap(NS, "c"));
      assertChange(next(w), Type.ADDED, "default/c", c.resourceVersion());
      assertQuiet(w);
    }
  }

  @Test
  public void watchFromAPastRevisionReplaysLaterChanges() throws Exception {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long from = a.resourceVersion();
    StoredObject b = store.create(cmKey(NS, "b"), configMap(NS, "b"));
    StoredObject a2 = store.update(cmKey(NS, "a"), withData(a.object(), "k", "2"), from);
    StoredObject other = store.create(cmKey("other", "x"), configMap("other", "x"));
    StoredObject bGone = store.delete(cmKey(NS, "b"), Preconditions.none());
    try (Watch w = store.watch(configMaps(NS), WatchOptions.builder().resourceVersion(from).build())) {
      assertChange(next(w), Type.ADDED, "default/b", b.resourceVersion());
      assertChange(next(w), Type.MODIFIED, "default/a", a2.resourceVersion());
      assertChange(next(w), Type.DELETED, "default/b", bGone.resourceVersion());
      StoredObject live = store.create(cmKey(NS, "c"), configMap(NS, "c"));
      assertChange(next(w), Type.ADDED, "default/c", live.resourceVersion());
      assertQuiet(w);
    }
    assertThat(other.resourceVersion()).isBetween(a2.resourceVersion(), bGone.resourceVersion());
  }

  @Test
  public void watchFromTheCurrentRevisionReplaysNothing() throws Exception {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long now = store.currentRevision();
    try (Watch w = store.watch(configMaps(""), WatchOptions.builder().resourceVersion(now).build())) {
      assertQuiet(w);
      StoredObject b = store.create(cmKey(NS, "b"), configMap(NS, "b"));
      assertChange(next(w), Type.ADDED, "default/b", b.resourceVersion());
    }
  }

  @Test
  public void watchOfANamespaceOnlySeesThatNamespace() throws Exception {
    try (Watch w = store.watch(configMaps("a"), fromNowWithoutState())) {
      store.create(cmKey("a-b", "x"), configMap("a-b", "x"));
      store.create(ObjectKey.namespaced("", "secrets", "a", "s"), configMap("a", "s"));
      StoredObject mine = store.create(cmKey("a", "x"), configMap("a", "x"));
      assertChange(next(w), Type.ADDED, "a/x", mine.resourceVersion());
      assertQuiet(w);
    }
  }

  @Test
  public void watchOfOneObject() throws Exception {
    store.create(cmKey(NS, "x"), configMap(NS, "x"));
    try (Watch w = store.watch(cmKey(NS, "x"), WatchOptions.fromNow())) {
      assertThat(nextChange(w).object().key()).isEqualTo(cmKey(NS, "x"));
      store.create(cmKey(NS, "y"), configMap(NS, "y"));
      StoredObject gone = store.delete(cmKey(NS, "x"), Preconditions.none());
      assertChange(next(w), Type.DELETED, "default/x", gone.resourceVersion());
      assertQuiet(w);
    }
  }

  @Test
  public void watchSelectorTransitionsBecomeAddedAndDeleted() throws Exception {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a", Map.of("app", "web")));
    WatchOptions options = WatchOptions.builder().initialEvents(InitialEvents.SKIP)
        .labelSelector(LabelSelector.parse("app=db")).build();
    try (Watch w = store.watch(configMaps(NS), options)) {
      StoredObject toDb = store.update(cmKey(NS, "a"),
          withLabels(a.object(), Map.of("app", "db")), a.resourceVersion());
      StoredObject stillDb = store.update(cmKey(NS, "a"), withData(toDb.object(), "k", "2"),
          toDb.resourceVersion());
      StoredObject away = store.update(cmKey(NS, "a"),
          withLabels(stillDb.object(), Map.of("app", "web")), stillDb.resourceVersion());
      store.update(cmKey(NS, "a"), withData(away.object(), "k", "3"), away.resourceVersion());
      StoredObject other = store.create(cmKey(NS, "b"), configMap(NS, "b", Map.of("app", "db")));
      assertChange(next(w), Type.ADDED, "default/a", toDb.resourceVersion());
      assertChange(next(w), Type.MODIFIED, "default/a", stillDb.resourceVersion());
      WatchEvent.ObjectChange left = nextChange(w);
      // kube reports the last matching state, stamped with the revision of the change
      assertChange(left, Type.DELETED, "default/a", away.resourceVersion());
      assertThat(left.object().object().without("metadata"))
          .isEqualTo(stillDb.object().without("metadata"));
      assertThat(((MapValue) ((MapValue) left.object().object().getOrNull("metadata"))
          .getOrNull("labels")).getOrNull("app")).isEqualTo(Value.of("db"));
      assertChange(next(w), Type.ADDED, "default/b", other.resourceVersion());
      assertQuiet(w);
    }
  }

  @Test
  public void watchWithAFieldSelector() throws Exception {
    store.create(cmKey(NS, "a"), configMap(NS, "a"));
    store.create(cmKey(NS, "b"), configMap(NS, "b"));
    WatchOptions options = WatchOptions.builder()
        .fieldSelector(FieldSelector.parse("metadata.name=b")).build();
    try (Watch w = store.watch(configMaps(""), options)) {
      assertThat(nextChange(w).object().key().name()).isEqualTo("b");
      StoredObject bGone = store.delete(cmKey(NS, "b"), Preconditions.none());
      store.delete(cmKey(NS, "a"), Preconditions.none());
      assertChange(next(w), Type.DELETED, "default/b", bGone.resourceVersion());
      assertQuiet(w);
    }
  }

  @Test
  public void bookmarksArriveOnlyWhenAllowed() throws Exception {
    WatchOptions withBookmarks = WatchOptions.builder().initialEvents(InitialEvents.SKIP)
        .allowBookmarks(true).bookmarkInterval(Duration.ofSeconds(5)).build();
    try (Watch plain = store.watch(configMaps(""), fromNowWithoutState());
        Watch w = store.watch(configMaps(""), withBookmarks)) {
      StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
      assertChange(next(w), Type.ADDED, "default/a", a.resourceVersion());
      assertChange(next(plain), Type.ADDED, "default/a", a.resourceVersion());
      store.create(ObjectKey.namespaced("", "secrets", NS, "s"), configMap(NS, "s"));
      long revision = store.currentRevision();
      assertQuiet(w);
      clock.advance(Duration.ofSeconds(6));
      WatchEvent bookmark = next(w);
      assertThat(bookmark).isInstanceOf(WatchEvent.Bookmark.class);
      assertThat(bookmark.type()).isEqualTo(Type.BOOKMARK);
      assertThat(((WatchEvent.Bookmark) bookmark).resourceVersion())
          .isGreaterThanOrEqualTo(a.resourceVersion()).isLessThanOrEqualTo(revision);
      assertThat(((WatchEvent.Bookmark) bookmark).initialEventsEnd()).isFalse();
      assertQuiet(plain);
      StoredObject b = store.create(cmKey(NS, "b"), configMap(NS, "b"));
      assertChange(next(w), Type.ADDED, "default/b", b.resourceVersion());
    }
  }

  @Test
  public void requestedInitialEventsEndWithAMarkedBookmark() throws Exception {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    long revision = store.currentRevision();
    WatchOptions options = WatchOptions.builder().initialEvents(InitialEvents.SEND)
        .allowBookmarks(true).build();
    try (Watch w = store.watch(configMaps(NS), options)) {
      assertChange(next(w), Type.ADDED, "default/a", a.resourceVersion());
      WatchEvent end = next(w);
      assertThat(end).isInstanceOf(WatchEvent.Bookmark.class);
      assertThat(((WatchEvent.Bookmark) end).initialEventsEnd()).isTrue();
      assertThat(((WatchEvent.Bookmark) end).resourceVersion()).isGreaterThanOrEqualTo(revision);
    }
  }

  @Test
  public void watchFromACompactedRevisionIsExpired() {
    StoredObject a = store.create(cmKey(NS, "a"), configMap(NS, "a"));
    store.update(cmKey(NS, "a"), withData(a.object(), "k", "2"), a.resourceVersion());
    store.update(cmKey(NS, "a"), withData(a.object(), "k", "3"), Store.ANY_VERSION);
    compact(store, store.currentRevision() - 1);
    long tooOld = a.resourceVersion() - 1;
    assertThatThrownBy(() -> store.watch(configMaps(NS),
        WatchOptions.builder().resourceVersion(tooOld).build()))
        .isInstanceOfSatisfying(GoneException.class, e -> {
          assertThat(e.code()).isEqualTo(410);
          assertThat(e.reason()).isEqualTo(StatusReason.EXPIRED);
          assertThat(e.getMessage()).matches("too old resource version: " + tooOld + " \\(\\d+\\)");
        });
  }

  @Test
  public void closingAWatchWakesAWaitingConsumer() throws Exception {
    Watch w = store.watch(configMaps(""), fromNowWithoutState());
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch polling = new CountDownLatch(1);
      Future<Optional<WatchEvent>> result = pool.submit(() -> {
        polling.countDown();
        return w.poll(Duration.ofMinutes(5));
      });
      assertThat(polling.await(EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      w.close();
      assertThat(result.get(EVENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
      assertThat(w.isClosed()).isTrue();
      store.create(cmKey(NS, "a"), configMap(NS, "a"));
      assertThat(w.poll(Duration.ZERO)).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  public void closingTheStoreEndsItsWatches() throws Exception {
    Watch w = store.watch(configMaps(""), fromNowWithoutState());
    store.close();
    assertThat(w.poll(EVENT_TIMEOUT)).isEmpty();
    assertThat(w.isClosed()).isTrue();
    assertThatThrownBy(() -> store.get(cmKey(NS, "a"))).isInstanceOf(IllegalStateException.class);
  }

  // ------------------------------------------------------------------ concurrency

  @Test
  public void concurrentCompareAndSwapIncrementsLoseNoUpdate() throws Exception {
    int threads = 16;
    int perThread = 50;
    ObjectKey key = cmKey(NS, "counter");
    store.create(key, configMap(NS, "counter", Map.of(), Map.of()).with("count", IntegerValue.of(0)));
    Set<Long> writtenRevisions = ConcurrentHashMap.newKeySet();
    runConcurrently(threads, t -> {
      for (int i = 0; i < perThread; i++) {
        while (true) {
          StoredObject current = store.get(key).orElseThrow();
          long count = ((IntegerValue) current.object().getOrNull("count")).value();
          try {
            StoredObject written = store.update(key,
                current.object().with("count", IntegerValue.of(count + 1)),
                current.resourceVersion());
            assertThat(writtenRevisions.add(written.resourceVersion())).isTrue();
            break;
          } catch (ConflictException lostRace) {
            // somebody else incremented first: read again
          }
        }
      }
    });
    StoredObject last = store.get(key).orElseThrow();
    assertThat(last.object().getOrNull("count")).isEqualTo(IntegerValue.of(threads * perThread));
    assertThat(writtenRevisions).hasSize(threads * perThread);
    assertThat(last.resourceVersion()).isEqualTo(writtenRevisions.stream().mapToLong(l -> l).max()
        .getAsLong());
  }

  @Test
  public void concurrentGuaranteedUpdatesLoseNoUpdate() throws Exception {
    ObjectKey key = cmKey(NS, "counter");
    store.create(key, MapValue.ofEntries("count", IntegerValue.of(0)));
    runConcurrently(8, t -> {
      for (int i = 0; i < 25; i++) {
        store.guaranteedUpdate(key, Preconditions.none(), o -> o.with("count",
            IntegerValue.of(((IntegerValue) o.getOrNull("count")).value() + 1)));
      }
    });
    assertThat(store.get(key).orElseThrow().object().getOrNull("count"))
        .isEqualTo(IntegerValue.of(200));
  }

  @Test
  public void manyKeysWrittenConcurrently() throws Exception {
    int threads = 16;
    int perThread = 40;
    runConcurrently(threads, t -> {
      for (int i = 0; i < perThread; i++) {
        String name = "t" + t + "-" + i;
        StoredObject created = store.create(cmKey("ns" + (i % 4), name), configMap("ns" + (i % 4), name));
        store.update(created.key(), withData(created.object(), "k", "done"),
            created.resourceVersion());
        if (i % 5 == 0) {
          store.delete(created.key(), Preconditions.none());
        }
      }
    });
    ListResult all = store.list(configMaps(""), ListOptions.all());
    assertThat(all.items()).hasSize(threads * (perThread - perThread / 5));
    assertThat(all.items()).allSatisfy(o -> assertThat(data(o, "k")).isEqualTo("done"));
    List<String> keys = names(all);
    assertThat(keys).isSortedAccordingTo(io.apiserver4j.core.Values::compareStrings);
  }

  @Test
  public void aWatchSeesEveryConcurrentChangeExactlyOnceInOrder() throws Exception {
    int threads = 8;
    int perThread = 60;
    Map<Long, StoredObject> written = new ConcurrentHashMap<>();
    try (Watch w = store.watch(configMaps(""), fromNowWithoutState())) {
      runConcurrently(threads, t -> {
        for (int i = 0; i < perThread; i++) {
          String name = "o" + (i % 10);
          ObjectKey key = cmKey("ns" + t, name);
          StoredObject s = store.get(key)
              .map(cur -> store.update(key, withData(cur.object(), "k", "v" + cur.resourceVersion()),
                  cur.resourceVersion()))
              .orElseGet(() -> store.create(key, configMap("ns" + t, name)));
          assertThat(written.put(s.resourceVersion(), s)).isNull();
        }
      });
      List<WatchEvent.ObjectChange> seen = new ArrayList<>();
      while (seen.size() < written.size()) {
        seen.add(nextChange(w));
      }
      assertQuiet(w);
      List<Long> revisions = seen.stream().map(WatchEvent.ObjectChange::resourceVersion)
          .collect(Collectors.toList());
      assertThat(revisions).isSorted().doesNotHaveDuplicates();
      assertThat(new HashSet<>(revisions)).isEqualTo(written.keySet());
      for (WatchEvent.ObjectChange c : seen) {
        assertThat(c.object()).isEqualTo(written.get(c.resourceVersion()));
        // creations carry the initial data, updates the revision they were based on
        assertThat(c.type()).isEqualTo(data(c.object(), "k").equals("v") ? Type.ADDED : Type.MODIFIED);
      }
    }
  }

  /** A task run by one of several threads, given its index. */
  @FunctionalInterface
  protected interface ThreadTask {
    void run(int thread) throws Exception;
  }

  /** Runs {@code task} on {@code threads} threads released together; rethrows the first failure. */
  protected static void runConcurrently(int threads, ThreadTask task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int index = t;
        futures.add(pool.submit(() -> {
          start.await();
          task.run(index);
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
