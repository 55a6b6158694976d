/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Expectations;
import io.apiserver4j.controllers.internal.OwnedPodHandler;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code ReplicaSetController} (pkg/controller/replicaset/replica_set.go) for one kind:
 * ReplicaSets ({@link #replicaSets}) or ReplicationControllers ({@link #replicationControllers}),
 * which kube runs through the same code. Each sync claims the namespace's active Pods by the
 * set's selector and controllerRef (kube's {@code ControllerRefManager}: adopt matching orphans,
 * release owned Pods that no longer match), creates missing Pods from the template in slow-start
 * batches of 1, 2, 4, ... or deletes surplus Pods in {@link ActivePodsWithRanks} order, at most
 * {@value #BURST_REPLICAS} per sync, then writes the status. Expectations keep a set from being
 * synced again before the informer has seen its last sync's creations and deletions.
 */
public final class ReplicaSetController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetController.class);
  /** kube-controller-manager's {@code BurstReplicas}. */
  static final int BURST_REPLICAS = 500;
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  /** What differs between the kinds the controller runs. */
  private record Kind(String apiVersion, String kind, GroupVersionResource resource,
      String account, boolean mapSelector, String syncsFlag) {}

  private final ControllerContext context;
  private final Kind kind;
  private final UserInfo user;
  private final Informer sets;
  private final Informer pods;
  private final PodOwnerIndex podIndex;
  private final WorkQueue<String> queue;
  private final Expectations expectations;
  private final ControllerRefManager refs;
  private final EventRecorder events;
  private Workers workers;

  private ReplicaSetController(ControllerContext context, Kind kind) {
    this.context = context;
    this.kind = kind;
    this.user = ControllerContext.serviceAccount(kind.account());
    this.expectations = context.newExpectations();
    // kube's event source component is the controller's user name for both kinds
    this.events = new EventRecorder(context, user, kind.account());
    this.refs = new ControllerRefManager(kind.apiVersion(), kind.kind(), this::setClient,
        this::podClient);
    this.queue = context.newQueue(kind.resource().resource());
    this.sets = context.informers().informer(
        new GroupResource(kind.resource().group(), kind.resource().resource()));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    sets.addHandler(new SetHandler());
    // the index first: a sync the Pod handler queues reads it up to date
    this.podIndex = new PodOwnerIndex(pods);
    pods.addHandler(podIndex);
    pods.addHandler(OwnedPodHandler.builder(sets, kind.kind(), queue).selector(this::selector)
        .expectations(expectations)
        .terminatingUpdate(OwnedPodHandler.TerminatingUpdate.AS_DELETE_OF_BOTH_IF_RELABELLED)
        .readyMargin(Duration.ofSeconds(1)).build());
  }

  /** The {@code replicaset} controller: ReplicaSets, as user {@code replicaset-controller}. */
  public static Controller replicaSets(ControllerContext context) {
    return new ReplicaSetController(context, new Kind("apps/v1", "ReplicaSet",
        new GroupVersionResource("apps", "v1", "replicasets"), "replicaset-controller", false,
        "replicaset"));
  }

  /**
   * The {@code replicationcontroller} controller: ReplicationControllers, as user
   * {@code replication-controller}.
   */
  public static Controller replicationControllers(ControllerContext context) {
    return new ReplicaSetController(context, new Kind("v1", "ReplicationController",
        new GroupVersionResource("", "v1", "replicationcontrollers"), "replication-controller",
        true, "rc"));
  }

  @Override
  public void start() {
    workers = context.startWorkers(kind.resource().resource(), queue,
        context.concurrentSyncs(kind.syncsFlag()), this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  // ---- event handlers: record and queue only ----

  private final class SetHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue object) {
      queue.add(Pods.key(object));
    }

    @Override
    public void onUpdate(MapValue old, MapValue object) {
      if (!Meta.metaString(old, "uid").equals(Meta.metaString(object, "uid"))) {
        expectations.delete(Pods.key(old));
      }
      queue.add(Pods.key(object));
    }

    @Override
    public void onDelete(MapValue object) {
      String key = Pods.key(object);
      expectations.delete(key);
      queue.add(key);
    }
  }

  /** The set's Pod selector; empty when it cannot be parsed (it then matches nothing). */
  private Optional<LabelSelector> selector(MapValue set) {
    Value s = Nested.getOrNull(set, "spec", "selector");
    if (kind.mapSelector()) {
      Map<String, String> m = new java.util.LinkedHashMap<>();
      if (s instanceof MapValue map) {
        for (int i = 0; i < map.size(); i++) {
          m.put(map.keyAt(i), Nested.str(map.valueAt(i)));
        }
      }
      return Optional.of(LabelSelector.ofEquals(m));
    }
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabelSelectors.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  // ---- sync ----

  /** kube's {@code syncReplicaSet}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    Optional<MapValue> cached = sets.get(namespace, key.substring(slash + 1));
    if (cached.isEmpty()) {
      expectations.delete(key);
      return Outcome.FORGET;
    }
    MapValue set = cached.get();
    boolean needsSync = expectations.satisfied(key);
    Optional<LabelSelector> selector = selector(set);
    if (selector.isEmpty()) {
      LOG.warn("{} {} has a selector that cannot be parsed", kind.kind(), key);
      return Outcome.FORGET;
    }
    List<MapValue> active = podIndex.candidates(namespace, Meta.metaString(set, "uid")).stream()
        .filter(Pods::active).toList();
    List<MapValue> owned = refs.claim(set, selector.get(), active);
    Optional<StatusException> manageError = Optional.empty();
    if (needsSync && !Nested.has(set, "metadata", "deletionTimestamp")) {
      manageError = manage(set, key, owned);
    }
    MapValue updated = updateStatus(set, status(set, owned, manageError));
    long minReady = Nested.integer(updated, "spec", "minReadySeconds");
    long replicas = replicas(updated);
    if (manageError.isEmpty() && minReady > 0
        && Nested.integer(updated, "status", "readyReplicas") == replicas
        && Nested.integer(updated, "status", "availableReplicas") != replicas) {
      queue.addAfter(key, Duration.ofSeconds(minReady));
    }
    if (manageError.isPresent()) {
      throw manageError.get();
    }
    return Outcome.FORGET;
  }

  private static long replicas(MapValue set) {
    return Nested.has(set, "spec", "replicas") ? Nested.integer(set, "spec", "replicas") : 1;
  }

  /** kube's {@code manageReplicas}; the first failed write, if any. */
  private Optional<StatusException> manage(MapValue set, String key, List<MapValue> owned) {
    long diff = owned.size() - replicas(set);
    if (diff < 0) {
      int create = (int) Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(key, create);
      StatusException[] failure = new StatusException[1];
      int created = slowStartBatch(create, () -> {
        try {
          MapValue pod = createPod(set);
          events.normal(involved(set), "SuccessfulCreate",
              "Created pod: " + Meta.metaString(pod, "name"));
          return true;
        } catch (StatusException e) {
          if (e.status().causes().stream().anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
            return true;
          }
          events.warning(involved(set), "FailedCreate", "Error creating: " + e.getMessage());
          if (failure[0] == null) {
            failure[0] = e;
          }
          return false;
        }
      });
      for (int i = created; i < create; i++) {
        // never attempted, or failed: the informer will not see these
        expectations.creationObserved(key);
      }
      return Optional.ofNullable(failure[0]);
    }
    if (diff > 0) {
      int delete = (int) Math.min(diff, BURST_REPLICAS);
      List<MapValue> victims = ActivePodsWithRanks.podsToDelete(owned, relatedPods(set), delete,
          context.clock().instant());
      List<String> keys = victims.stream().map(Pods::key).toList();
      expectations.expectDeletions(key, keys);
      StatusException failure = null;
      for (MapValue pod : victims) {
        String name = Meta.metaString(pod, "name");
        try {
          podClient(Meta.metaString(pod, "namespace")).delete(name);
          events.normal(involved(set), "SuccessfulDelete", "Deleted pod: " + name);
        } catch (StatusException e) {
          expectations.deletionObserved(key, Pods.key(pod));
          if (!(e instanceof NotFoundException)) {
            events.warning(involved(set), "FailedDelete", "Error deleting: " + e.getMessage());
            if (failure == null) {
              failure = e;
            }
          }
        }
      }
      return Optional.ofNullable(failure);
    }
    return Optional.empty();
  }

  /**
   * kube's {@code slowStartBatch} from a batch of 1: batches double while every call in them
   * succeeds; after a batch with a failure the rest is skipped. Returns the successes.
   */
  static int slowStartBatch(int count, java.util.function.BooleanSupplier call) {
    int remaining = count;
    int successes = 0;
    for (int batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
      int ok = 0;
      for (int i = 0; i < batch; i++) {
        if (call.getAsBoolean()) {
          ok++;
        }
      }
      successes += ok;
      if (ok < batch) {
        return successes;
      }
      remaining -= batch;
    }
    return successes;
  }

  /** The set as kube's event recorder references it. */
  private InvolvedObject involved(MapValue set) {
    return InvolvedObject.of(kind.apiVersion(), kind.kind(), set);
  }

  /**
   * kube's {@code GetPodFromTemplate} with the set's controllerRef, then a create; returns the
   * created Pod.
   */
  private MapValue createPod(MapValue set) {
    MapValue template = Nested.map(set, "spec", "template");
    MapValue.Builder meta = MapValue.builder();
    MapValue tmeta = Nested.map(template, "metadata");
    for (String k : List.of("labels", "annotations", "finalizers")) {
      Value v = tmeta.getOrNull(k);
      if (v != null) {
        meta.put(k, v);
      }
    }
    meta.put("generateName", Value.of(Meta.metaString(set, "name") + "-"));
    meta.put("namespace", Value.of(Meta.metaString(set, "namespace")));
    meta.put("ownerReferences", ListValue.of(List.of(refs.controllerRef(set))));
    MapValue pod = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Pod"),
        "metadata", meta.build(), "spec", Nested.map(template, "spec"));
    return podClient(Meta.metaString(set, "namespace")).create(pod);
  }

  /** kube's {@code getIndirectlyRelatedPods}: the Pods of every set with the same owner. */
  private List<MapValue> relatedPods(MapValue set) {
    Optional<MapValue> owner = Pods.controllerRef(set);
    List<MapValue> related = new ArrayList<>();
    if (owner.isEmpty()) {
      related.add(set);
    } else {
      String ownerUid = Nested.str(owner.get(), "uid");
      for (MapValue s : sets.list(Meta.metaString(set, "namespace"))) {
        if (Pods.controllerRef(s).map(r -> Nested.str(r, "uid").equals(ownerUid)).orElse(false)) {
          related.add(s);
        }
      }
    }
    Set<String> seen = new HashSet<>();
    List<MapValue> out = new ArrayList<>();
    for (MapValue s : related) {
      Optional<LabelSelector> sel = selector(s);
      if (sel.isEmpty()) {
        continue;
      }
      for (MapValue pod : pods.list(Meta.metaString(s, "namespace"))) {
        if (sel.get().matches(Meta.labels(pod)) && seen.add(Meta.metaString(pod, "uid"))) {
          out.add(pod);
        }
      }
    }
    return out;
  }

  // ---- status ----

  /** kube's {@code calculateStatus}, observedGeneration included. */
  private MapValue status(MapValue set, List<MapValue> owned,
      Optional<StatusException> manageError) {
    Map<String, String> templateLabels = Meta.labels(Nested.map(set, "spec", "template"));
    long minReady = Nested.integer(set, "spec", "minReadySeconds");
    Instant now = context.clock().instant();
    long fullyLabeled = 0;
    long ready = 0;
    long available = 0;
    for (MapValue pod : owned) {
      Map<String, String> labels = Meta.labels(pod);
      if (labels.entrySet().containsAll(templateLabels.entrySet())) {
        fullyLabeled++;
      }
      if (Pods.ready(pod)) {
        ready++;
        if (Pods.available(pod, minReady, now)) {
          available++;
        }
      }
    }
    List<Value> conditions = new ArrayList<>(Nested.list(set, "status", "conditions"));
    boolean hasFailure = conditions.stream()
        .anyMatch(c -> Nested.str(c, "type").equals("ReplicaFailure"));
    if (manageError.isPresent() && !hasFailure) {
      String reason = owned.size() - replicas(set) < 0 ? "FailedCreate" : "FailedDelete";
      conditions.add(MapValue.ofEntries("type", Value.of("ReplicaFailure"),
          "status", Value.of("True"), "lastTransitionTime", Value.of(Meta.formatTime(now)),
          "reason", Value.of(reason), "message", Value.of(manageError.get().getMessage())));
    } else if (manageError.isEmpty() && hasFailure) {
      conditions.removeIf(c -> Nested.str(c, "type").equals("ReplicaFailure"));
    }
    MapValue.Builder b = MapValue.builder();
    b.put("replicas", Value.of((long) owned.size()));
    putNonZero(b, "fullyLabeledReplicas", fullyLabeled);
    putNonZero(b, "readyReplicas", ready);
    putNonZero(b, "availableReplicas", available);
    putNonZero(b, "observedGeneration", Meta.generation(set));
    if (!conditions.isEmpty()) {
      b.put("conditions", ListValue.of(conditions));
    }
    return b.build();
  }

  private static void putNonZero(MapValue.Builder b, String key, long value) {
    if (value != 0) {
      b.put(key, Value.of(value));
    }
  }

  /**
   * kube's {@code updateReplicaSetStatus}: writes the status unless it is current, retrying
   * once on a conflict with the set read again; returns the set as it now is.
   */
  private MapValue updateStatus(MapValue set, MapValue status) {
    MapValue current = set;
    for (int attempt = 0; ; attempt++) {
      MapValue old = Nested.map(current, "status");
      if (sameCounts(old, status)
          && Meta.generation(current) == Nested.integer(old, "observedGeneration")
          && Objects.equals(old.getOrNull("conditions"), status.getOrNull("conditions"))) {
        return current;
      }
      MapValue body = current.with("status", status.with("observedGeneration",
          Value.of(Meta.generation(current))));
      if (Meta.generation(current) == 0) {
        body = current.with("status", status);
      }
      try {
        return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, kind.resource())
            .namespace(Meta.metaString(current, "namespace"))
            .name(Meta.metaString(current, "name")).subresource("status")
            .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
            .user(user).body(body).build()).orThrow();
      } catch (ConflictException e) {
        if (attempt >= 1) {
          throw e;
        }
        current = setClient(Meta.metaString(current, "namespace"))
            .get(Meta.metaString(current, "name"));
      }
    }
  }

  private static boolean sameCounts(MapValue a, MapValue b) {
    for (String k : List.of("replicas", "fullyLabeledReplicas", "readyReplicas",
        "availableReplicas")) {
      if (Nested.integer(a, k) != Nested.integer(b, k)) {
        return false;
      }
    }
    return true;
  }

  private ResourceClient podClient(String namespace) {
    return context.client(PODS, user).namespace(namespace);
  }

  private ResourceClient setClient(String namespace) {
    return context.client(kind.resource(), user).namespace(namespace);
  }
}
