/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.statefulset;

import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isCreated;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isFailed;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isHealthy;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isPending;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isRunningAndAvailable;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isRunningAndReady;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isSucceeded;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.isTerminating;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.ordinal;
import static io.apiserver4j.controllers.statefulset.StatefulSetUtils.podRevision;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.ControllerHistory;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.OwnedPodHandler;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code StatefulSetController} (pkg/controller/statefulset: stateful_set.go,
 * stateful_set_control.go, stateful_pod_control.go): each sync adopts the set's orphan
 * ControllerRevisions, claims its member Pods, finds or creates the update revision, then
 * creates missing ordinals (with their PVCs first), recreates failed ones, fixes identity,
 * storage and PVC retention owner references, deletes condemned ordinals from the highest, and
 * rolls Pods not at the update revision from the highest ordinal down to the partition, at most
 * maxUnavailable at a time. With OrderedReady management every step waits for the Pods before
 * it to be Running and Ready; Parallel does not wait. It then writes the status and trims the
 * revision history to {@code revisionHistoryLimit}.
 */
public final class StatefulSetController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(StatefulSetController.class);
  /** kube's {@code --concurrent-statefulset-syncs} default. */
  private static final int WORKERS = 5;
  private static final GroupVersionResource SETS =
      new GroupVersionResource("apps", "v1", "statefulsets");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource CLAIMS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource REVISIONS =
      new GroupVersionResource("apps", "v1", "controllerrevisions");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer sets;
  private final Informer pods;
  private final Informer claims;
  private final Informer revisions;
  private final WorkQueue<String> queue;
  private final ControllerRefManager refs;
  private final ControllerHistory history;
  private final EventRecorder events;
  private Workers workers;

  private StatefulSetController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("statefulset-controller");
    this.queue = context.newQueue("statefulset");
    this.events = new EventRecorder(context, user, "statefulset-controller");
    this.refs = new ControllerRefManager("apps/v1", "StatefulSet", this::setClient,
        this::podClient);
    this.history = new ControllerHistory("apps/v1", "StatefulSet",
        ns -> context.client(REVISIONS, user).namespace(ns));
    this.sets = context.informers().informer(new GroupResource("apps", "statefulsets"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    this.revisions = context.informers().informer(new GroupResource("apps",
        "controllerrevisions"));
    sets.addHandler(ResourceEventHandler.enqueueing(queue));
    pods.addHandler(OwnedPodHandler.builder(sets, "StatefulSet", queue).build());
  }

  /** The {@code statefulset} controller, as user {@code statefulset-controller}. */
  public static Controller create(ControllerContext context) {
    return new StatefulSetController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("statefulset", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  // ---- event handlers ----

  // ---- sync (stateful_set.go) ----

  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    Optional<MapValue> cached = sets.get(namespace, key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue set = cached.get();
    Optional<LabelSelector> selector = Informer.specSelector(set);
    if (selector.isEmpty()) {
      LOG.warn("StatefulSet {} has a selector that cannot be parsed", key);
      return Outcome.FORGET;
    }
    List<MapValue> owned = ControllerHistory.owned(set, selector.get(),
        revisions.list(namespace));
    if (!isTerminating(set)) {
      for (MapValue r : owned) {
        if (Pods.controllerRef(r).isEmpty()) {
          history.adopt(set, r);
        }
      }
    }
    List<MapValue> candidates = pods.list(namespace).stream()
        .filter(p -> StatefulSetUtils.isMemberOf(set, p)).toList();
    List<MapValue> members = refs.claim(set, selector.get(), candidates);
    MapValue status = updateStatefulSet(set, members,
        ControllerHistory.owned(set, selector.get(), revisions.list(namespace)));
    long minReady = Nested.integer(set, "spec", "minReadySeconds");
    if (minReady > 0 && Nested.integer(status, "availableReplicas")
        != StatefulSetUtils.replicas(set)) {
      queue.addAfter(key, Duration.ofSeconds(minReady));
    }
    return Outcome.FORGET;
  }

  // ---- stateful_set_control.go ----

  /** The revisions a sync works with. */
  private record Revisions(MapValue current, MapValue update, long collisionCount) {}

  /** kube's {@code UpdateStatefulSet}: the work, the status, the history trim. */
  private MapValue updateStatefulSet(MapValue set, List<MapValue> members,
      List<MapValue> ownedRevisions) {
    List<MapValue> sorted = ControllerHistory.sorted(ownedRevisions);
    Revisions revs = revisions(set, sorted);
    MapValue status;
    StatusException failure = null;
    Sync s = new Sync(set, revs, members);
    try {
      s.run();
    } catch (StatusException e) {
      failure = e;
    }
    status = s.status();
    MapValue written = updateStatus(set, status);
    truncateHistory(written, members, sorted, revs);
    if (failure != null) {
      throw failure;
    }
    return status;
  }

  /** kube's {@code getStatefulSetRevisions}: the current and update revisions. */
  private Revisions revisions(MapValue set, List<MapValue> sorted) {
    long collisionCount = Nested.integer(set, "status", "collisionCount");
    MapValue candidate = history.newRevision(set, Meta.labels(Nested.map(set, "spec",
        "template")), StatefulSetUtils.patch(set), ControllerHistory.nextRevision(sorted),
        Optional.of(collisionCount));
    candidate = withSetAnnotations(candidate, set);
    List<MapValue> equal = sorted.stream().filter(r -> StatefulSetUtils.matches(set, r))
        .toList();
    MapValue update;
    if (!equal.isEmpty() && equal.get(equal.size() - 1) == sorted.get(sorted.size() - 1)) {
      update = sorted.get(sorted.size() - 1);
    } else if (!equal.isEmpty()) {
      // a rollback: the equal revision becomes the newest
      update = history.renumber(equal.get(equal.size() - 1),
          ControllerHistory.revision(candidate));
    } else {
      ControllerHistory.Created created = history.create(set, candidate, collisionCount);
      update = created.revision();
      collisionCount = created.collisionCount();
    }
    String currentName = Nested.str(set, "status", "currentRevision");
    MapValue current = sorted.stream()
        .filter(r -> Meta.metaString(r, "name").equals(currentName)).findFirst().orElse(update);
    return new Revisions(current, update, collisionCount);
  }

  private static MapValue withSetAnnotations(MapValue revision, MapValue set) {
    Value annotations = Nested.getOrNull(set, "metadata", "annotations");
    if (annotations == null) {
      return revision;
    }
    return Meta.withMeta(revision, "annotations", annotations);
  }

  /** One sync's view of a set: its Pods by slot, and what it does to them. */
  private final class Sync {
    private final MapValue set;
    private final Revisions revs;
    private final MapValue currentSet;
    private final MapValue updateSet;
    private final MapValue[] replicas;
    private final List<MapValue> condemned = new ArrayList<>();
    private final boolean monotonic;
    private final long minReady;
    private final Instant now;
    private final MapValue controllerRef;
    private MapValue firstUnhealthy;

    Sync(MapValue set, Revisions revs, List<MapValue> members) {
      this.set = set;
      this.revs = revs;
      this.currentSet = StatefulSetUtils.applyRevision(set, revs.current());
      this.updateSet = StatefulSetUtils.applyRevision(set, revs.update());
      this.monotonic = !StatefulSetUtils.allowsBurst(set);
      this.minReady = Nested.integer(set, "spec", "minReadySeconds");
      this.now = context.clock().instant();
      this.controllerRef = refs.controllerRef(set);
      int count = StatefulSetUtils.replicas(set);
      int start = StatefulSetUtils.startOrdinal(set);
      this.replicas = new MapValue[count];
      for (MapValue pod : members) {
        int ord = ordinal(pod);
        if (StatefulSetUtils.inOrdinalRange(pod, set)) {
          replicas[ord - start] = pod;
        } else if (ord >= 0) {
          condemned.add(pod);
        }
      }
      for (int i = 0; i < count; i++) {
        if (replicas[i] == null) {
          replicas[i] = newPod(start + i);
        }
      }
      condemned.sort(Comparator.comparingInt(StatefulSetUtils::ordinal));
      int firstOrdinal = Integer.MAX_VALUE;
      for (MapValue pod : allPods()) {
        if (!isHealthy(pod) && ordinal(pod) < firstOrdinal) {
          firstOrdinal = ordinal(pod);
          firstUnhealthy = pod;
        }
      }
    }

    private MapValue newPod(int ordinal) {
      return StatefulSetUtils.newVersionedPod(currentSet, updateSet,
          Meta.metaString(revs.current(), "name"), Meta.metaString(revs.update(), "name"),
          ordinal, controllerRef);
    }

    private List<MapValue> allPods() {
      List<MapValue> all = new ArrayList<>(List.of(replicas));
      all.addAll(condemned);
      return all;
    }

    /** kube's {@code updateStatefulSet}; stops where kube returns. */
    void run() {
      if (isTerminating(set)) {
        return;
      }
      if (monotonic) {
        for (int i = 0; i < replicas.length; i++) {
          if (processReplica(i)) {
            return;
          }
        }
      } else {
        // kube runs Parallel replicas concurrently; the first failure ends the sync
        boolean exit = false;
        for (int i = 0; i < replicas.length; i++) {
          exit |= processReplica(i);
        }
        if (exit) {
          return;
        }
      }
      // PVC owners of condemned Pods are fixed before any of them goes
      for (MapValue pod : condemned) {
        if (!claimsMatchRetentionPolicy(updateSet, pod)) {
          updateClaimsForRetentionPolicy(updateSet, pod);
        }
      }
      for (int target = condemned.size() - 1; target >= 0; target--) {
        if (processCondemned(target)) {
          return;
        }
      }
      if (Nested.str(set, "spec", "updateStrategy", "type").equals("OnDelete")) {
        return;
      }
      rollingUpdate();
    }

    /** kube's {@code processReplica}; true when the sync must stop here. */
    private boolean processReplica(int i) {
      MapValue pod = replicas[i];
      if (isFailed(pod) || isSucceeded(pod)) {
        if (!isTerminating(pod)) {
          String name = Meta.metaString(pod, "name");
          String which = Meta.metaString(set, "namespace") + "/" + Meta.metaString(set, "name");
          if (isFailed(pod)) {
            events.warning(involved(set), "RecreatingFailedPod",
                "StatefulSet " + which + " is recreating failed Pod " + name);
          } else {
            events.normal(involved(set), "RecreatingTerminatedPod",
                "StatefulSet " + which + " is recreating terminated Pod " + name);
          }
          deletePod(set, pod);
        }
        // the replacement is made once the informer has seen this one go
        return true;
      }
      if (!isCreated(pod)) {
        if (claimIsStale(pod)) {
          return true;
        }
        if (!createPod(set, pod)) {
          // the informer has not seen this Pod yet; its add event syncs the set again
          return true;
        }
        return monotonic;
      }
      if (isPending(pod)) {
        createMissingClaims(set, pod);
      }
      if (isTerminating(pod) && monotonic) {
        return true;
      }
      if (!isRunningAndReady(pod) && monotonic) {
        return true;
      }
      if (!isRunningAndAvailable(pod, minReady, now) && monotonic) {
        return true;
      }
      boolean retention = claimsMatchRetentionPolicy(updateSet, pod);
      if (StatefulSetUtils.identityMatches(set, pod) && StatefulSetUtils.storageMatches(set, pod)
          && retention) {
        return false;
      }
      updatePod(updateSet, pod);
      return false;
    }

    /** kube's {@code processCondemned}; true when the sync must stop here. */
    private boolean processCondemned(int target) {
      MapValue pod = condemned.get(target);
      if (isTerminating(pod)) {
        return monotonic;
      }
      if (!isRunningAndReady(pod) && monotonic && pod != firstUnhealthy) {
        return true;
      }
      if (!isRunningAndAvailable(pod, minReady, now) && monotonic && pod != firstUnhealthy) {
        return true;
      }
      deletePod(set, pod);
      return monotonic;
    }

    /**
     * kube's rolling update with maxUnavailable: Pods in range not at the update revision are
     * deleted from the highest ordinal down to the partition, while fewer than maxUnavailable
     * Pods are unavailable.
     */
    private void rollingUpdate() {
      int updateMin = (int) Nested.integer(set, "spec", "updateStrategy", "rollingUpdate",
          "partition");
      int maxUnavailable = StatefulSetUtils.maxUnavailable(set);
      int unavailable = 0;
      for (MapValue pod : replicas) {
        if (!isHealthy(pod) || !isRunningAndAvailable(pod, minReady, now)) {
          unavailable++;
        }
      }
      if (unavailable >= maxUnavailable) {
        return;
      }
      int toDelete = maxUnavailable - unavailable;
      String update = Meta.metaString(revs.update(), "name");
      int deleted = 0;
      for (int target = replicas.length - 1; target >= updateMin && deleted < toDelete;
          target--) {
        MapValue pod = replicas[target];
        if (!podRevision(pod).equals(update) && !isTerminating(pod)) {
          deletePod(set, pod);
          deleted++;
        }
      }
    }

    /** kube's {@code updateStatus} over the Pods the sync started from, plus the revisions. */
    MapValue status() {
      long replicasCount = 0;
      long ready = 0;
      long available = 0;
      long current = 0;
      long updated = 0;
      String currentName = Meta.metaString(revs.current(), "name");
      String updateName = Meta.metaString(revs.update(), "name");
      for (MapValue pod : allPods()) {
        if (isCreated(pod)) {
          replicasCount++;
        }
        if (isRunningAndReady(pod)) {
          ready++;
          if (isRunningAndAvailable(pod, minReady, now)) {
            available++;
          }
        }
        if (isCreated(pod) && !isTerminating(pod)) {
          if (podRevision(pod).equals(currentName)) {
            current++;
          }
          if (podRevision(pod).equals(updateName)) {
            updated++;
          }
        }
      }
      // kube's completeRollingUpdate
      if (Nested.str(set, "spec", "updateStrategy", "type").equals("RollingUpdate")
          && updated == replicasCount && ready == replicasCount) {
        current = updated;
        currentName = updateName;
      }
      MapValue.Builder b = MapValue.builder();
      b.put("observedGeneration", Value.of(Meta.generation(set)));
      b.put("replicas", Value.of(replicasCount));
      putNonZero(b, "readyReplicas", ready);
      putNonZero(b, "currentReplicas", current);
      putNonZero(b, "updatedReplicas", updated);
      b.put("currentRevision", Value.of(currentName));
      b.put("updateRevision", Value.of(updateName));
      b.put("collisionCount", Value.of(revs.collisionCount()));
      b.put("availableReplicas", Value.of(available));
      Value conditions = Nested.getOrNull(set, "status", "conditions");
      if (conditions != null) {
        b.put("conditions", conditions);
      }
      return b.build();
    }
  }

  private static void putNonZero(MapValue.Builder b, String key, long value) {
    if (value != 0) {
      b.put(key, Value.of(value));
    }
  }

  /**
   * kube's {@code truncateHistory}: revisions that are neither current, update, nor some Pod's
   * are deleted oldest first until {@code revisionHistoryLimit} remain.
   */
  private void truncateHistory(MapValue set, List<MapValue> members, List<MapValue> sorted,
      Revisions revs) {
    Set<String> live = new HashSet<>();
    live.add(Meta.metaString(revs.current(), "name"));
    live.add(Meta.metaString(revs.update(), "name"));
    for (MapValue pod : members) {
      live.add(podRevision(pod));
    }
    List<MapValue> old = sorted.stream().filter(r -> !live.contains(Meta.metaString(r, "name")))
        .toList();
    long limit = Nested.has(set, "spec", "revisionHistoryLimit")
        ? Nested.integer(set, "spec", "revisionHistoryLimit") : 10;
    for (int i = 0; i < old.size() - limit; i++) {
      history.delete(old.get(i));
    }
  }

  /**
   * kube's {@code StatefulSetStatusUpdater}: writes the status through the status subresource
   * unless it is already current, retrying conflicts against the set read again.
   */
  private MapValue updateStatus(MapValue set, MapValue status) {
    MapValue current = set;
    for (int attempt = 0; ; attempt++) {
      if (sameStatus(Nested.map(current, "status"), status)) {
        return current;
      }
      try {
        return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, SETS)
            .namespace(Meta.metaString(current, "namespace"))
            .name(Meta.metaString(current, "name")).subresource("status")
            .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
            .user(user).body(current.with("status", status)).build()).orThrow();
      } catch (ConflictException e) {
        if (attempt >= 9) {
          throw e;
        }
        current = setClient(Meta.metaString(current, "namespace"))
            .get(Meta.metaString(current, "name"));
      } catch (NotFoundException e) {
        return current;
      }
    }
  }

  private static boolean sameStatus(MapValue old, MapValue status) {
    for (String k : List.of("observedGeneration", "replicas", "readyReplicas", "currentReplicas",
        "updatedReplicas", "availableReplicas", "collisionCount")) {
      if (Nested.integer(old, k) != Nested.integer(status, k) || (Nested.has(old, k)
          != Nested.has(status, k) && (k.equals("collisionCount")
              || k.equals("availableReplicas") || k.equals("replicas")))) {
        return false;
      }
    }
    return Nested.str(old, "currentRevision").equals(Nested.str(status, "currentRevision"))
        && Nested.str(old, "updateRevision").equals(Nested.str(status, "updateRevision"));
  }

  // ---- stateful_pod_control.go ----

  /**
   * kube's {@code CreateStatefulPod}: the claims first, then the Pod, then claim owners; false
   * when the Pod already exists (kube returns that error; the informer's add event of the
   * existing Pod syncs the set again, so it is not logged as a failure here).
   */
  private boolean createPod(MapValue owner, MapValue pod) {
    List<String> errors = new ArrayList<>();
    StatusException claimFailure = createClaims(owner, pod, errors);
    if (claimFailure != null) {
      recordPodEvent("create", owner, pod, Optional.of(aggregate(errors)));
      throw claimFailure;
    }
    try {
      podClient(Meta.metaString(pod, "namespace")).create(pod);
    } catch (AlreadyExistsException e) {
      return false;
    } catch (StatusException e) {
      recordPodEvent("create", owner, pod, Optional.of(e.getMessage()));
      throw e;
    }
    MapValue set = setOf(pod);
    updateClaimsForRetentionPolicy(set, pod);
    recordPodEvent("create", owner, pod, Optional.empty());
    return true;
  }

  /**
   * kube's {@code recordPodEvent}: {@code Successful<Verb>} or {@code Failed<Verb>} about the
   * set, with kube's message.
   */
  private void recordPodEvent(String verb, MapValue set, MapValue pod, Optional<String> error) {
    String title = Character.toUpperCase(verb.charAt(0)) + verb.substring(1);
    String what = verb + " Pod " + Meta.metaString(pod, "name") + " in StatefulSet "
        + Meta.metaString(set, "name");
    if (error.isEmpty()) {
      events.normal(involved(set), "Successful" + title, what + " successful");
    } else {
      events.warning(involved(set), "Failed" + title, what + " failed error: " + error.get());
    }
  }

  /** Go's {@code utilerrors.Aggregate} message of one or more errors. */
  private static String aggregate(List<String> errors) {
    List<String> distinct = errors.stream().distinct().toList();
    return distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
  }

  /** The set as kube's recorder references it. */
  private static EventRecorder.InvolvedObject involved(MapValue set) {
    return EventRecorder.InvolvedObject.of("apps/v1", "StatefulSet", set);
  }

  private MapValue setOf(MapValue pod) {
    String parent = StatefulSetUtils.parentAndOrdinal(Meta.metaString(pod, "name")).parent();
    return sets.get(Meta.metaString(pod, "namespace"), parent).orElseThrow(() ->
        StatusErrors.notFound(new GroupResource("apps", "statefulsets"), parent));
  }

  /** kube's {@code createPersistentVolumeClaims}: creates the Pod's claims that are missing. */
  private void createMissingClaims(MapValue owner, MapValue pod) {
    StatusException failure = createClaims(owner, pod, new ArrayList<>());
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * kube's {@code createPersistentVolumeClaims} with its claim Events: the first failure, if
   * any, with kube's error messages added to {@code errors}.
   */
  private StatusException createClaims(MapValue owner, MapValue pod, List<String> errors) {
    MapValue set = setOf(pod);
    StatusException failure = null;
    for (MapValue claim : StatefulSetUtils.claims(set, ordinal(pod)).values()) {
      String namespace = Meta.metaString(claim, "namespace");
      String name = Meta.metaString(claim, "name");
      Optional<MapValue> existing = claims.get(namespace, name);
      if (existing.isEmpty()) {
        existing = claimClient(namespace).find(name);
      }
      if (existing.isEmpty()) {
        String about = " Claim " + name + " Pod " + Meta.metaString(pod, "name")
            + " in StatefulSet " + Meta.metaString(owner, "name");
        try {
          claimClient(namespace).create(claim);
          events.normal(involved(owner), "SuccessfulCreate", "create" + about + " success");
        } catch (AlreadyExistsException e) {
          // created meanwhile: fine
        } catch (StatusException e) {
          failure = failure == null ? e : failure;
          errors.add("failed to create PVC " + name + ": " + e.getMessage());
          events.warning(involved(owner), "FailedCreate", "create" + about.replace(" Pod ",
              " for Pod ") + " failed error: " + e.getMessage());
        }
      } else if (isTerminating(existing.get())) {
        failure = failure == null ? StatusErrors.internal("pvc " + name
            + " is being deleted") : failure;
        errors.add("pvc " + name + " is being deleted");
      }
    }
    return failure;
  }

  /**
   * kube's {@code PodClaimIsStale}: a claim of the Pod that exists and carries an owner
   * reference to an older Pod of the same name blocks the Pod until the garbage collector
   * removes it.
   */
  private boolean claimIsStale(MapValue pod) {
    MapValue set = setOf(pod);
    for (MapValue claim : StatefulSetUtils.claims(set, ordinal(pod)).values()) {
      Optional<MapValue> existing = claims.get(Meta.metaString(claim, "namespace"),
          Meta.metaString(claim, "name"));
      if (existing.isEmpty()) {
        continue;
      }
      for (Value r : Nested.list(existing.get(), "metadata", "ownerReferences")) {
        if (Nested.str(r, "kind").equals("Pod")
            && Nested.str(r, "name").equals(Meta.metaString(pod, "name"))
            && !Nested.str(r, "uid").equals(Meta.metaString(pod, "uid"))) {
          return true;
        }
      }
    }
    return false;
  }

  /** kube's {@code ClaimsMatchRetentionPolicy}: missing claims count as matching. */
  private boolean claimsMatchRetentionPolicy(MapValue set, MapValue pod) {
    for (MapValue claim : StatefulSetUtils.claims(set, ordinal(pod)).values()) {
      Optional<MapValue> existing = claims.get(Meta.metaString(claim, "namespace"),
          Meta.metaString(claim, "name"));
      if (existing.isPresent()
          && StatefulSetUtils.claimOwnerRefs(set, existing.get(), pod).isPresent()) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code UpdatePodClaimForRetentionPolicy}: writes the owners the policy wants. */
  private void updateClaimsForRetentionPolicy(MapValue set, MapValue pod) {
    MapValue livePod = pod;
    if (Meta.metaString(pod, "uid").isEmpty()) {
      // just created: the owner reference needs the server's UID
      Optional<MapValue> created = podClient(Meta.metaString(pod, "namespace"))
          .find(Meta.metaString(pod, "name"));
      if (created.isEmpty()) {
        return;
      }
      livePod = created.get();
    }
    for (MapValue claim : StatefulSetUtils.claims(set, ordinal(pod)).values()) {
      ResourceClient client = claimClient(Meta.metaString(claim, "namespace"));
      for (int attempt = 0; attempt < 10; attempt++) {
        Optional<MapValue> existing = client.find(Meta.metaString(claim, "name"));
        if (existing.isEmpty()) {
          break;
        }
        Optional<List<Value>> owners = StatefulSetUtils.claimOwnerRefs(set, existing.get(),
            livePod);
        if (owners.isEmpty()) {
          break;
        }
        try {
          client.update(Meta.withMeta(existing.get(), "ownerReferences",
              ListValue.of(owners.get())));
          break;
        } catch (ConflictException e) {
          // read again and retry, as kube's RetryOnConflict
        }
      }
    }
  }

  /**
   * kube's {@code UpdateStatefulPod}: fixes identity, storage (creating missing claims) and
   * claim owners, then updates the Pod, retrying conflicts against the Pod read again.
   */
  private void updatePod(MapValue set, MapValue pod) {
    MapValue current = pod;
    ResourceClient client = podClient(Meta.metaString(pod, "namespace"));
    for (int attempt = 0; ; attempt++) {
      boolean consistent = true;
      MapValue fixed = current;
      if (!StatefulSetUtils.identityMatches(set, fixed)) {
        fixed = StatefulSetUtils.updateIdentity(set, fixed);
        consistent = false;
      }
      if (!StatefulSetUtils.storageMatches(set, fixed)) {
        fixed = StatefulSetUtils.updateStorage(set, fixed);
        consistent = false;
        List<String> errors = new ArrayList<>();
        StatusException claimFailure = createClaims(set, fixed, errors);
        if (claimFailure != null) {
          recordPodEvent("update", set, fixed, Optional.of(aggregate(errors)));
          throw claimFailure;
        }
      }
      if (!claimsMatchRetentionPolicy(set, fixed)) {
        updateClaimsForRetentionPolicy(set, fixed);
      }
      if (consistent) {
        return;
      }
      try {
        client.update(fixed);
        recordPodEvent("update", set, fixed, Optional.empty());
        return;
      } catch (ConflictException e) {
        if (attempt >= 9) {
          recordPodEvent("update", set, fixed, Optional.of(e.getMessage()));
          throw e;
        }
        Optional<MapValue> fresh = client.find(Meta.metaString(pod, "name"));
        if (fresh.isEmpty()) {
          return;
        }
        current = fresh.get();
      }
    }
  }

  /** kube's {@code DeleteStatefulPod}; a Pod already gone counts as deleted. */
  private void deletePod(MapValue set, MapValue pod) {
    try {
      podClient(Meta.metaString(pod, "namespace")).delete(Meta.metaString(pod, "name"));
    } catch (NotFoundException e) {
      // gone already; kube records the failed delete all the same
      recordPodEvent("delete", set, pod, Optional.of(e.getMessage()));
      return;
    } catch (StatusException e) {
      recordPodEvent("delete", set, pod, Optional.of(e.getMessage()));
      throw e;
    }
    recordPodEvent("delete", set, pod, Optional.empty());
  }

  private ResourceClient podClient(String namespace) {
    return context.client(PODS, user).namespace(namespace);
  }

  private ResourceClient claimClient(String namespace) {
    return context.client(CLAIMS, user).namespace(namespace);
  }

  private ResourceClient setClient(String namespace) {
    return context.client(SETS, user).namespace(namespace);
  }
}
