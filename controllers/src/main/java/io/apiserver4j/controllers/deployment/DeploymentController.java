/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.deployment;

import static io.apiserver4j.controllers.deployment.DeploymentUtil.replicas;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.PodTemplateHash;
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
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code DeploymentController} (pkg/controller/deployment: deployment_controller.go,
 * sync.go, rolling.go, recreate.go, rollback.go, progress.go): each sync claims the namespace's
 * ReplicaSets by the Deployment's selector, then, in kube's order, reports status only for a
 * Deployment being deleted, records the paused condition, scales proportionally when paused or
 * on a scaling event, rolls back for the deprecated rollback annotation, or rolls out with the
 * Deployment's strategy (RollingUpdate within maxSurge/maxUnavailable, or Recreate), and writes
 * the status with kube's Progressing and Available conditions. New ReplicaSets are named
 * {@code <deployment>-<pod-template-hash>} with kube's hash ({@link PodTemplateHash}).
 *
 * <p>Writes go through the API as {@code system:serviceaccount:kube-system:deployment-controller}
 * on the server clock. Where kube carries an object it already wrote (and then fails the next
 * write with a conflict and retries), a sync carries the server's answer instead; the result
 * is the same with fewer retries. kube's Events are recorded from {@code deployment-controller}.
 */
public final class DeploymentController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(DeploymentController.class);
  /** kube's {@code --concurrent-deployment-syncs} default. */
  private static final int WORKERS = 5;
  /** kube's {@code maxRevHistoryLengthInChars}. */
  static final int MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;
  private static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  private static final GroupVersionResource REPLICA_SETS =
      new GroupVersionResource("apps", "v1", "replicasets");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  /** kube's rollback Event reasons (deployment/util). */
  static final String ROLLBACK_REVISION_NOT_FOUND = "DeploymentRollbackRevisionNotFound";
  static final String ROLLBACK_TEMPLATE_UNCHANGED = "DeploymentRollbackTemplateUnchanged";
  static final String ROLLBACK_DONE = "DeploymentRollback";

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer deployments;
  private final Informer sets;
  private final Informer pods;
  private final WorkQueue<String> queue;
  private final ControllerRefManager refs;
  private final EventRecorder events;
  private Workers workers;

  private DeploymentController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("deployment-controller");
    this.queue = context.newQueue("deployment");
    this.events = new EventRecorder(context, user, "deployment-controller");
    this.refs = new ControllerRefManager("apps/v1", "Deployment", this::deploymentClient,
        this::setClient);
    this.deployments = context.informers().informer(new GroupResource("apps", "deployments"));
    this.sets = context.informers().informer(new GroupResource("apps", "replicasets"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    deployments.addHandler(ResourceEventHandler.enqueueing(queue));
    sets.addHandler(new SetHandler());
    pods.addHandler(new PodHandler());
  }

  /** The {@code deployment} controller. */
  public static Controller create(ControllerContext context) {
    return new DeploymentController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("deployment", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  // ---- event handlers: record and queue only ----

  private final class SetHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue rs) {
      if (Nested.has(rs, "metadata", "deletionTimestamp")) {
        // a restarted informer can list a set already being deleted
        onDelete(rs);
        return;
      }
      Optional<MapValue> ref = Pods.controllerRef(rs);
      if (ref.isPresent()) {
        resolve(Meta.metaString(rs, "namespace"), ref.get())
            .ifPresent(d -> queue.add(Pods.key(d)));
        return;
      }
      for (MapValue d : deploymentsFor(rs)) {
        queue.add(Pods.key(d));
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue rs) {
      if (Meta.metaString(old, "resourceVersion").equals(Meta.metaString(rs, "resourceVersion"))) {
        return;
      }
      Optional<MapValue> oldRef = Pods.controllerRef(old);
      Optional<MapValue> ref = Pods.controllerRef(rs);
      boolean refChanged = !oldRef.equals(ref);
      if (refChanged && oldRef.isPresent()) {
        resolve(Meta.metaString(old, "namespace"), oldRef.get())
            .ifPresent(d -> queue.add(Pods.key(d)));
      }
      if (ref.isPresent()) {
        resolve(Meta.metaString(rs, "namespace"), ref.get())
            .ifPresent(d -> queue.add(Pods.key(d)));
        return;
      }
      if (refChanged || !Meta.labels(old).equals(Meta.labels(rs))) {
        for (MapValue d : deploymentsFor(rs)) {
          queue.add(Pods.key(d));
        }
      }
    }

    @Override
    public void onDelete(MapValue rs) {
      Pods.controllerRef(rs).flatMap(ref -> resolve(Meta.metaString(rs, "namespace"), ref))
          .ifPresent(d -> queue.add(Pods.key(d)));
    }
  }

  /** kube's {@code deletePod}: a Recreate Deployment left without Pods syncs again. */
  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      // kube's deployment controller only watches Pod deletions
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      // kube's deployment controller only watches Pod deletions
    }

    @Override
    public void onDelete(MapValue pod) {
      String ns = Meta.metaString(pod, "namespace");
      Optional<MapValue> d = Pods.controllerRef(pod)
          .filter(r -> Nested.str(r, "kind").equals("ReplicaSet"))
          .flatMap(r -> sets.get(ns, Nested.str(r, "name"))
              .filter(s -> Meta.metaString(s, "uid").equals(Nested.str(r, "uid"))))
          .flatMap(Pods::controllerRef)
          .flatMap(r -> resolve(ns, r));
      if (d.isEmpty() || !Nested.str(d.get(), "spec", "strategy", "type").equals("Recreate")) {
        return;
      }
      Optional<LabelSelector> selector = selector(d.get());
      if (selector.isEmpty()) {
        return;
      }
      String uid = Meta.metaString(d.get(), "uid");
      List<MapValue> owned = sets.list(ns).stream().filter(s -> Pods.controllerRef(s)
          .map(r -> Nested.str(r, "uid").equals(uid)).orElse(false)).toList();
      Map<String, List<MapValue>> podMap = podMap(d.get(), selector.get(), owned);
      if (podMap.values().stream().allMatch(List::isEmpty)) {
        queue.add(Pods.key(d.get()));
      }
    }
  }

  /** kube's {@code resolveControllerRef}: the cached Deployment a controllerRef names. */
  private Optional<MapValue> resolve(String namespace, MapValue ref) {
    return deployments.resolveControllerRef(namespace, ref, "Deployment");
  }

  /** kube's {@code getDeploymentsForReplicaSet}: the Deployments whose selector matches. */
  private List<MapValue> deploymentsFor(MapValue rs) {
    Map<String, String> labels = Meta.labels(rs);
    if (labels.isEmpty()) {
      return List.of();
    }
    List<MapValue> out = new ArrayList<>();
    for (MapValue d : deployments.list(Meta.metaString(rs, "namespace"))) {
      Optional<LabelSelector> s = selector(d);
      if (s.isPresent() && !s.get().isEverything() && s.get().matches(labels)) {
        out.add(d);
      }
    }
    return out;
  }

  private static Optional<LabelSelector> selector(MapValue d) {
    Value s = Nested.getOrNull(d, "spec", "selector");
    if (s == null || s.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabelSelectors.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  // ---- sync ----

  /**
   * One sync of one Deployment: its latest state as this sync wrote it, and the ReplicaSets it
   * claimed, each replaced by what the server answered when the sync wrote it.
   */
  private final class Run {
    final String key;
    MapValue d;
    final List<MapValue> sets;

    Run(String key, MapValue d, List<MapValue> sets) {
      this.key = key;
      this.d = d;
      this.sets = new ArrayList<>(sets);
    }

    MapValue written(MapValue rs) {
      String uid = Meta.metaString(rs, "uid");
      for (int i = 0; i < sets.size(); i++) {
        if (Meta.metaString(sets.get(i), "uid").equals(uid)) {
          sets.set(i, rs);
          return rs;
        }
      }
      sets.add(rs);
      return rs;
    }
  }

  /** kube's {@code syncDeployment}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = deployments.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue d = cached.get();
    Value selectorValue = Nested.getOrNull(d, "spec", "selector");
    if (selectorValue instanceof MapValue m && m.isEmpty()) {
      events.warning(involved(d), "SelectingAll",
          "This deployment is selecting all pods. A non-empty selector is required.");
      // kube refuses to select every Pod, but records that it saw the generation
      if (Nested.integer(d, "status", "observedGeneration") < Meta.generation(d)) {
        updateStatus(d, Nested.map(d, "status").with("observedGeneration",
            Value.of(Meta.generation(d))));
      }
      return Outcome.FORGET;
    }
    Optional<LabelSelector> selector = selector(d);
    if (selector.isEmpty()) {
      LOG.warn("deployment {} has an invalid label selector", key);
      return Outcome.FORGET;
    }
    try {
      List<MapValue> owned = refs.claim(d, selector.get(),
          sets.list(Meta.metaString(d, "namespace")));
      Run run = new Run(key, d, owned);
      if (Nested.has(d, "metadata", "deletionTimestamp")) {
        syncStatusOnly(run);
        return Outcome.FORGET;
      }
      checkPausedConditions(run);
      if (Nested.bool(run.d, "spec", "paused")) {
        syncScaling(run);
        return Outcome.FORGET;
      }
      if (rollbackTo(run.d).isPresent()) {
        rollback(run);
        return Outcome.FORGET;
      }
      if (isScalingEvent(run)) {
        syncScaling(run);
        return Outcome.FORGET;
      }
      String type = Nested.str(run.d, "spec", "strategy", "type");
      switch (type) {
        // kube lists the Pods on every sync, but only Recreate reads them: listing them here
        // only spares every RollingUpdate sync a pass over the namespace's Pods
        case "Recreate" -> rolloutRecreate(run, podMap(d, selector.get(), owned));
        case "RollingUpdate" -> rolloutRolling(run);
        default -> throw new IllegalStateException("unexpected deployment strategy type: "
            + type);
      }
      return Outcome.FORGET;
    } catch (ConflictException | NotFoundException | AlreadyExistsException e) {
      // a write raced a change the informer has not shown yet, or a hash collision bumped the
      // collision count: the next sync sees it
      LOG.debug("deployment {}: {}", key, e.getMessage());
      return Outcome.REQUEUE;
    }
  }

  /** kube's {@code getPodMapForDeployment}: the Pods of each claimed set, by the set's UID. */
  private Map<String, List<MapValue>> podMap(MapValue d, LabelSelector selector,
      List<MapValue> owned) {
    Map<String, List<MapValue>> out = new LinkedHashMap<>();
    for (MapValue rs : owned) {
      out.put(Meta.metaString(rs, "uid"), new ArrayList<>());
    }
    for (MapValue pod : pods.list(Meta.metaString(d, "namespace"))) {
      if (!selector.matches(pod)) {
        continue;
      }
      Pods.controllerRef(pod).map(r -> out.get(Nested.str(r, "uid")))
          .ifPresent(list -> list.add(pod));
    }
    return out;
  }

  private void syncStatusOnly(Run run) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, false);
    syncDeploymentStatus(run, sets.all(), sets.newRS());
  }

  /** kube's {@code sync}: scaling events and paused Deployments. */
  private void syncScaling(Run run) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, false);
    Rollout.scale(run.d, sets.newRS(), sets.old(), scaler(run));
    if (Nested.bool(run.d, "spec", "paused") && rollbackTo(run.d).isEmpty()) {
      cleanupDeployment(run, sets.old());
    }
    syncDeploymentStatus(run, sets.all(), sets.newRS());
  }

  /** kube's {@code checkPausedConditions}. */
  private void checkPausedConditions(Run run) {
    MapValue d = run.d;
    if (!DeploymentUtil.hasProgressDeadline(d)) {
      return;
    }
    MapValue status = Nested.map(d, "status");
    Optional<MapValue> cond = DeploymentUtil.getCondition(status, DeploymentUtil.PROGRESSING);
    String reason = cond.map(c -> Nested.str(c, "reason")).orElse("");
    if (reason.equals(DeploymentUtil.TIMED_OUT)) {
      // a reported lack of progress is not overwritten by the paused condition
      return;
    }
    boolean pausedCondition = reason.equals(DeploymentUtil.PAUSED);
    boolean paused = Nested.bool(d, "spec", "paused");
    Instant now = context.clock().instant();
    if (paused && !pausedCondition) {
      status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
          DeploymentUtil.PROGRESSING, "Unknown", DeploymentUtil.PAUSED, "Deployment is paused",
          now));
    } else if (!paused && pausedCondition) {
      status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
          DeploymentUtil.PROGRESSING, "Unknown", DeploymentUtil.RESUMED, "Deployment is resumed",
          now));
    } else {
      return;
    }
    run.d = updateStatus(d, status);
  }

  /** The new set (null when there is none) and the old ones. */
  private record NewAndOld(MapValue newRS, List<MapValue> old) {
    List<MapValue> all() {
      List<MapValue> all = new ArrayList<>(old);
      if (newRS != null) {
        all.add(newRS);
      }
      return all;
    }
  }

  /** kube's {@code getAllReplicaSetsAndSyncRevision}. */
  private NewAndOld getAllReplicaSetsAndSyncRevision(Run run, boolean createIfNotExisted) {
    List<MapValue> allOld = DeploymentUtil.findOldReplicaSets(run.d, run.sets).all();
    MapValue newRS = getNewReplicaSet(run, allOld, createIfNotExisted);
    return new NewAndOld(newRS, allOld);
  }

  /** kube's {@code getNewReplicaSet}: finds, or creates, the set of the current template. */
  private MapValue getNewReplicaSet(Run run, List<MapValue> oldRSs, boolean createIfNotExisted) {
    MapValue d = run.d;
    Optional<MapValue> existing = DeploymentUtil.findNewReplicaSet(d, run.sets);
    String newRevision = String.valueOf(DeploymentUtil.maxRevision(oldRSs) + 1);
    Instant now = context.clock().instant();
    if (existing.isPresent()) {
      MapValue rs = existing.get();
      DeploymentUtil.Annotated annotated = DeploymentUtil.setNewReplicaSetAnnotations(d, rs,
          newRevision, true, MAX_REV_HISTORY_LENGTH_IN_CHARS);
      long minReady = Nested.integer(d, "spec", "minReadySeconds");
      if (annotated.changed() || Nested.integer(rs, "spec", "minReadySeconds") != minReady) {
        MapValue copy = Nested.set(annotated.object(), Value.of(minReady), "spec",
            "minReadySeconds");
        return run.written(setClient(Meta.metaString(d, "namespace")).update(copy));
      }
      // the set's revision was settled when it was written
      DeploymentUtil.Annotated revised = DeploymentUtil.setDeploymentRevision(d,
          Meta.annotations(rs).getOrDefault(DeploymentUtil.REVISION, ""));
      boolean needsUpdate = revised.changed();
      MapValue status = Nested.map(d, "status");
      if (DeploymentUtil.hasProgressDeadline(d)
          && DeploymentUtil.getCondition(status, DeploymentUtil.PROGRESSING).isEmpty()) {
        // old users may have started caring about progress: count from the first sight
        status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
            DeploymentUtil.PROGRESSING, "True", DeploymentUtil.FOUND_NEW_RS,
            "Found new replica set \"" + Meta.metaString(rs, "name") + "\"", now));
        needsUpdate = true;
      }
      if (needsUpdate) {
        run.d = updateStatus(revised.object(), status);
      }
      return rs;
    }
    if (!createIfNotExisted) {
      return null;
    }
    MapValue template = Nested.map(d, "spec", "template");
    OptionalLong collisionCount = Nested.has(d, "status", "collisionCount")
        ? OptionalLong.of(Nested.integer(d, "status", "collisionCount")) : OptionalLong.empty();
    String hash = PodTemplateHash.compute(template, collisionCount);
    Map<String, String> labels = new LinkedHashMap<>(Meta.labels(template));
    labels.put(DeploymentUtil.HASH_LABEL, hash);
    MapValue newTemplate = DeploymentUtil.withLabels(template, labels);
    MapValue selector = Nested.map(d, "spec", "selector");
    MapValue matchLabels = Nested.map(selector, "matchLabels")
        .with(DeploymentUtil.HASH_LABEL, Value.of(hash));
    String name = Meta.metaString(d, "name") + "-" + hash;
    String namespace = Meta.metaString(d, "namespace");
    MapValue newRS = MapValue.ofEntries("apiVersion", Value.of("apps/v1"),
        "kind", Value.of("ReplicaSet"),
        "metadata", MapValue.ofEntries("name", Value.of(name), "namespace", Value.of(namespace),
            "ownerReferences", ListValue.of(List.of(refs.controllerRef(d)))),
        "spec", MapValue.ofEntries("replicas", Value.of(0L),
            "minReadySeconds", Value.of(Nested.integer(d, "spec", "minReadySeconds")),
            "selector", selector.with("matchLabels", matchLabels),
            "template", newTemplate));
    newRS = DeploymentUtil.withLabels(newRS, labels);
    List<MapValue> all = new ArrayList<>(oldRSs);
    all.add(newRS);
    long newReplicas = DeploymentUtil.newRSNewReplicas(d, all, newRS);
    newRS = DeploymentUtil.withReplicas(newRS, newReplicas);
    newRS = DeploymentUtil.setNewReplicaSetAnnotations(d, newRS, newRevision, false,
        MAX_REV_HISTORY_LENGTH_IN_CHARS).object();
    boolean alreadyExists = false;
    MapValue created;
    try {
      created = setClient(namespace).create(newRS);
    } catch (AlreadyExistsException e) {
      // a slow cache, or a hash collision with a set of another template
      MapValue rs = setClient(namespace).get(name);
      Optional<MapValue> ref = Pods.controllerRef(rs);
      if (ref.isPresent() && Nested.str(ref.get(), "uid").equals(Meta.metaString(d, "uid"))
          && PodTemplateHash.equalIgnoreHash(template, Nested.map(rs, "spec", "template"))) {
        created = rs;
        alreadyExists = true;
      } else {
        long count = collisionCount.orElse(0) + 1;
        LOG.info("found a hash collision for deployment {}: bumping collisionCount to {}",
            run.key, count);
        run.d = updateStatus(d, Nested.map(d, "status").with("collisionCount", Value.of(count)));
        throw e;
      }
    } catch (StatusException e) {
      if (e.status().causes().stream().anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
        throw e;
      }
      String message = "Failed to create new replica set \"" + name + "\": " + e.getMessage();
      if (DeploymentUtil.hasProgressDeadline(d)) {
        MapValue status = DeploymentUtil.setCondition(Nested.map(d, "status"),
            DeploymentUtil.condition(DeploymentUtil.PROGRESSING, "False",
                DeploymentUtil.FAILED_RS_CREATE, message, now));
        try {
          run.d = updateStatus(d, status);
        } catch (StatusException ignored) {
          // the failed create is the error to report
        }
      }
      events.warning(involved(d), DeploymentUtil.FAILED_RS_CREATE, message);
      throw e;
    }
    run.written(created);
    if (!alreadyExists && newReplicas > 0) {
      events.normal(involved(d), "ScalingReplicaSet", "Scaled up replica set "
          + Meta.metaString(created, "name") + " from 0 to " + newReplicas);
    }
    DeploymentUtil.Annotated revised = DeploymentUtil.setDeploymentRevision(run.d, newRevision);
    boolean needsUpdate = revised.changed();
    MapValue status = Nested.map(run.d, "status");
    if (!alreadyExists && DeploymentUtil.hasProgressDeadline(run.d)) {
      status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
          DeploymentUtil.PROGRESSING, "True", DeploymentUtil.NEW_REPLICA_SET,
          "Created new replica set \"" + Meta.metaString(created, "name") + "\"", now));
      needsUpdate = true;
    }
    if (needsUpdate) {
      run.d = updateStatus(revised.object(), status);
    }
    return created;
  }

  /** The controller's writes behind {@link Rollout}'s decisions, for one sync. */
  private Rollout.Scaler scaler(Run run) {
    return new Rollout.Scaler() {
      @Override
      public Rollout.Scaled scale(MapValue rs, long newScale) {
        return scaleReplicaSetAndRecordEvent(run, rs, newScale);
      }

      @Override
      public Rollout.Scaled scaleAndAnnotate(MapValue rs, long newScale) {
        return scaleReplicaSet(run, rs, newScale);
      }
    };
  }

  /** kube's {@code scaleReplicaSetAndRecordEvent}. */
  private Rollout.Scaled scaleReplicaSetAndRecordEvent(Run run, MapValue rs, long newScale) {
    if (replicas(rs) == newScale) {
      return new Rollout.Scaled(false, rs);
    }
    return scaleReplicaSet(run, rs, newScale);
  }

  /** kube's {@code scaleReplicaSet}: writes the size and the replicas annotations. */
  private Rollout.Scaled scaleReplicaSet(Run run, MapValue rs, long newScale) {
    MapValue d = run.d;
    boolean sizeNeedsUpdate = replicas(rs) != newScale;
    long max = replicas(d) + DeploymentUtil.maxSurge(d);
    if (!sizeNeedsUpdate
        && !DeploymentUtil.replicasAnnotationsNeedUpdate(rs, replicas(d), max)) {
      return new Rollout.Scaled(false, rs);
    }
    MapValue copy = DeploymentUtil.setReplicasAnnotations(
        DeploymentUtil.withReplicas(rs, newScale), replicas(d), max).object();
    long oldScale = replicas(rs);
    MapValue updated = run.written(setClient(Meta.metaString(rs, "namespace")).update(copy));
    if (sizeNeedsUpdate) {
      events.normal(involved(d), "ScalingReplicaSet", "Scaled "
          + (oldScale < newScale ? "up" : "down") + " replica set "
          + Meta.metaString(updated, "name") + " from " + oldScale + " to " + newScale);
    }
    return new Rollout.Scaled(sizeNeedsUpdate, updated);
  }

  /** kube's {@code cleanupDeployment}: deletes what {@link Rollout#toCleanUp} picks. */
  private void cleanupDeployment(Run run, List<MapValue> oldRSs) {
    for (MapValue rs : Rollout.toCleanUp(run.d, oldRSs)) {
      try {
        setClient(Meta.metaString(rs, "namespace")).delete(Meta.metaString(rs, "name"));
      } catch (NotFoundException e) {
        // already gone
      }
    }
  }

  /** kube's {@code syncDeploymentStatus}. */
  private void syncDeploymentStatus(Run run, List<MapValue> allRSs, MapValue newRS) {
    MapValue status = calculateStatus(allRSs, newRS, run.d, context.clock().instant());
    if (!status.equals(Nested.map(run.d, "status"))) {
      run.d = updateStatus(run.d, status);
    }
  }

  /** kube's {@code calculateStatus}; zero counts are left out, as kube's JSON omits them. */
  static MapValue calculateStatus(List<MapValue> allRSs, MapValue newRS, MapValue d,
      Instant now) {
    long available = DeploymentUtil.statusCount(allRSs, "availableReplicas");
    long unavailable = Math.max(0, DeploymentUtil.replicaCount(allRSs) - available);
    MapValue.Builder b = MapValue.builder();
    putNonZero(b, "observedGeneration", Meta.generation(d));
    putNonZero(b, "replicas", DeploymentUtil.statusCount(allRSs, "replicas"));
    putNonZero(b, "updatedReplicas", newRS == null ? 0
        : Nested.integer(newRS, "status", "replicas"));
    putNonZero(b, "readyReplicas", DeploymentUtil.statusCount(allRSs, "readyReplicas"));
    putNonZero(b, "availableReplicas", available);
    putNonZero(b, "unavailableReplicas", unavailable);
    Value collisions = Nested.getOrNull(d, "status", "collisionCount");
    if (collisions != null && !collisions.isNull()) {
      b.put("collisionCount", collisions);
    }
    List<Value> conditions = Nested.list(d, "status", "conditions");
    if (!conditions.isEmpty()) {
      b.put("conditions", ListValue.of(conditions));
    }
    MapValue status = b.build();
    if (available >= replicas(d) - DeploymentUtil.maxUnavailable(d)) {
      status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
          DeploymentUtil.AVAILABLE, "True", DeploymentUtil.MINIMUM_REPLICAS_AVAILABLE,
          "Deployment has minimum availability.", now));
    } else {
      status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
          DeploymentUtil.AVAILABLE, "False", DeploymentUtil.MINIMUM_REPLICAS_UNAVAILABLE,
          "Deployment does not have minimum availability.", now));
    }
    return status;
  }

  private static void putNonZero(MapValue.Builder b, String key, long value) {
    if (value != 0) {
      b.put(key, Value.of(value));
    }
  }

  /** kube's {@code isScalingEvent}: an active set's desired-replicas is not the Deployment's. */
  private boolean isScalingEvent(Run run) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, false);
    for (MapValue rs : DeploymentUtil.active(sets.all())) {
      OptionalLong desired = DeploymentUtil.nonNegativeInt32Annotation(rs,
          DeploymentUtil.DESIRED_REPLICAS);
      if (desired.isPresent() && desired.getAsLong() != replicas(run.d)) {
        return true;
      }
    }
    return false;
  }

  // ---- rolling.go ----

  /** kube's {@code rolloutRolling}. */
  private void rolloutRolling(Run run) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, true);
    List<MapValue> all = sets.all();
    if (Rollout.reconcileNewReplicaSet(run.d, all, sets.newRS(), scaler(run))) {
      syncRolloutStatus(run, all, sets.newRS());
      return;
    }
    if (Rollout.reconcileOldReplicaSets(run.d, all, DeploymentUtil.active(sets.old()),
        sets.newRS(), scaler(run))) {
      syncRolloutStatus(run, all, sets.newRS());
      return;
    }
    if (DeploymentUtil.deploymentComplete(run.d, Nested.map(run.d, "status"))) {
      cleanupDeployment(run, sets.old());
    }
    syncRolloutStatus(run, all, sets.newRS());
  }

  // ---- recreate.go ----

  /** kube's {@code rolloutRecreate}: old sets to zero, no old Pod left, then the new set. */
  private void rolloutRecreate(Run run, Map<String, List<MapValue>> podMap) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, false);
    List<MapValue> all = sets.all();
    boolean scaledDown = false;
    for (MapValue rs : DeploymentUtil.active(sets.old())) {
      scaledDown |= scaleReplicaSetAndRecordEvent(run, rs, 0).scaled();
    }
    if (scaledDown) {
      syncRolloutStatus(run, all, sets.newRS());
      return;
    }
    if (Rollout.oldPodsRunning(sets.newRS(), sets.old(), podMap)) {
      syncRolloutStatus(run, all, sets.newRS());
      return;
    }
    if (sets.newRS() == null) {
      sets = getAllReplicaSetsAndSyncRevision(run, true);
      all = sets.all();
    }
    scaleReplicaSetAndRecordEvent(run, sets.newRS(), replicas(run.d));
    if (DeploymentUtil.deploymentComplete(run.d, Nested.map(run.d, "status"))) {
      cleanupDeployment(run, sets.old());
    }
    syncRolloutStatus(run, all, sets.newRS());
  }

  // ---- rollback.go ----

  /** The revision of the deprecated rollback annotation; empty without a parsable one. */
  static Optional<Long> rollbackTo(MapValue d) {
    String v = Meta.annotations(d).get(DeploymentUtil.ROLLBACK_TO);
    if (v == null || v.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(v));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** kube's {@code rollback}: the template of the set of the requested revision. */
  private void rollback(Run run) {
    NewAndOld sets = getAllReplicaSetsAndSyncRevision(run, true);
    List<MapValue> all = sets.all();
    long revision = rollbackTo(run.d).orElse(0L);
    if (revision == 0) {
      revision = DeploymentUtil.lastRevision(all);
      if (revision == 0) {
        LOG.info("deployment {}: unable to find last revision; giving up the rollback", run.key);
        events.warning(involved(run.d), ROLLBACK_REVISION_NOT_FOUND,
            "Unable to find last revision.");
        updateDeploymentAndClearRollbackTo(run, run.d);
        return;
      }
    }
    for (MapValue rs : all) {
      OptionalLong v = DeploymentUtil.revision(rs);
      if (v.isPresent() && v.getAsLong() == revision) {
        MapValue d = run.d;
        MapValue template = Nested.map(rs, "spec", "template");
        boolean performed = false;
        if (!PodTemplateHash.equalIgnoreHash(Nested.map(d, "spec", "template"), template)) {
          d = Nested.set(d, PodTemplateHash.withoutHashLabel(template), "spec", "template");
          // the set's annotations, or the current ones would be copied onto it
          d = DeploymentUtil.setDeploymentAnnotationsTo(d, rs);
          performed = true;
        } else {
          events.warning(involved(d), ROLLBACK_TEMPLATE_UNCHANGED, "The rollback revision "
              + "contains the same template as current deployment \""
              + Meta.metaString(d, "name") + "\"");
        }
        updateDeploymentAndClearRollbackTo(run, d);
        if (performed) {
          events.normal(involved(d), ROLLBACK_DONE, "Rolled back deployment \""
              + Meta.metaString(d, "name") + "\" to revision " + revision);
        }
        return;
      }
    }
    LOG.info("deployment {}: unable to find revision {} to roll back to", run.key, revision);
    events.warning(involved(run.d), ROLLBACK_REVISION_NOT_FOUND,
        "Unable to find the revision to rollback to.");
    updateDeploymentAndClearRollbackTo(run, run.d);
  }

  private void updateDeploymentAndClearRollbackTo(Run run, MapValue d) {
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(d));
    annotations.remove(DeploymentUtil.ROLLBACK_TO);
    run.d = deploymentClient(Meta.metaString(d, "namespace"))
        .update(DeploymentUtil.withAnnotations(d, annotations));
  }

  // ---- progress.go ----

  /** kube's {@code syncRolloutStatus}: status with the Progressing condition. */
  private void syncRolloutStatus(Run run, List<MapValue> allRSs, MapValue newRS) {
    MapValue d = run.d;
    Instant now = context.clock().instant();
    MapValue status = calculateStatus(allRSs, newRS, d, now);
    status = rolloutStatus(d, status, allRSs, newRS, now);
    if (status.equals(Nested.map(d, "status"))) {
      requeueStuckDeployment(run.key, d, status, now);
      return;
    }
    run.d = updateStatus(d, status);
  }

  /** The Progressing and ReplicaFailure conditions of kube's {@code syncRolloutStatus}. */
  static MapValue rolloutStatus(MapValue d, MapValue calculated, List<MapValue> allRSs,
      MapValue newRS, Instant now) {
    MapValue status = calculated;
    boolean deadline = DeploymentUtil.hasProgressDeadline(d);
    if (!deadline) {
      status = DeploymentUtil.removeCondition(status, DeploymentUtil.PROGRESSING);
    }
    Optional<MapValue> current = DeploymentUtil.getCondition(Nested.map(d, "status"),
        DeploymentUtil.PROGRESSING);
    boolean complete = Nested.integer(status, "replicas")
        == Nested.integer(status, "updatedReplicas")
        && current.map(c -> Nested.str(c, "reason").equals(DeploymentUtil.NEW_RS_AVAILABLE))
            .orElse(false);
    String subject = newRS == null ? "Deployment \"" + Meta.metaString(d, "name") + "\""
        : "ReplicaSet \"" + Meta.metaString(newRS, "name") + "\"";
    if (deadline && !complete) {
      if (DeploymentUtil.deploymentComplete(d, status)) {
        status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
            DeploymentUtil.PROGRESSING, "True", DeploymentUtil.NEW_RS_AVAILABLE,
            subject + " has successfully progressed.", now));
      } else if (DeploymentUtil.deploymentProgressing(d, status)) {
        MapValue condition = DeploymentUtil.condition(DeploymentUtil.PROGRESSING, "True",
            DeploymentUtil.REPLICA_SET_UPDATED, subject + " is progressing.", now);
        // progress moves lastUpdateTime even when the reason stays: replace the condition,
        // keeping the transition time of a condition that was already True
        if (current.isPresent()) {
          if (Nested.str(current.get(), "status").equals("True")) {
            condition = DeploymentUtil.copyField(condition, current.get(),
                "lastTransitionTime");
          }
          status = DeploymentUtil.removeCondition(status, DeploymentUtil.PROGRESSING);
        }
        status = DeploymentUtil.setCondition(status, condition);
      } else if (DeploymentUtil.deploymentTimedOut(d, status, now)) {
        status = DeploymentUtil.setCondition(status, DeploymentUtil.condition(
            DeploymentUtil.PROGRESSING, "False", DeploymentUtil.TIMED_OUT,
            subject + " has timed out progressing.", now));
      }
    }
    Optional<MapValue> failure = replicaFailure(allRSs, newRS);
    if (failure.isPresent()) {
      status = DeploymentUtil.setCondition(status, failure.get());
    } else {
      status = DeploymentUtil.removeCondition(status, DeploymentUtil.REPLICA_FAILURE);
    }
    return status;
  }

  /** kube's {@code getReplicaFailures}: the new set's first, else any set's, as a condition. */
  private static Optional<MapValue> replicaFailure(List<MapValue> allRSs, MapValue newRS) {
    List<MapValue> order = new ArrayList<>();
    if (newRS != null) {
      order.add(newRS);
    }
    order.addAll(allRSs);
    for (MapValue rs : order) {
      if (rs == null) {
        continue;
      }
      for (Value c : Nested.list(rs, "status", "conditions")) {
        if (Nested.str(c, "type").equals(DeploymentUtil.REPLICA_FAILURE)) {
          MapValue m = (MapValue) c;
          return Optional.of(MapValue.ofEntries("type", Value.of(DeploymentUtil.REPLICA_FAILURE),
              "status", Value.of(Nested.str(m, "status")),
              "lastUpdateTime", Value.of(Nested.str(m, "lastTransitionTime")),
              "lastTransitionTime", Value.of(Nested.str(m, "lastTransitionTime")),
              "reason", Value.of(Nested.str(m, "reason")),
              "message", Value.of(Nested.str(m, "message"))));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code requeueStuckDeployment}: a rollout without progress is looked at again when
   * its deadline passes, on the server clock.
   */
  private void requeueStuckDeployment(String key, MapValue d, MapValue newStatus, Instant now) {
    Optional<Duration> after = stuckRequeueDelay(d, newStatus, now);
    if (after.isEmpty()) {
      return;
    }
    if (after.get().isZero()) {
      queue.addRateLimited(key);
    } else {
      queue.addAt(key, now.plus(after.get()).plusSeconds(1));
    }
  }

  /**
   * How long until a stuck rollout's deadline (zero when under a second); empty when there is
   * nothing to wait for: kube's {@code requeueStuckDeployment} result.
   */
  static Optional<Duration> stuckRequeueDelay(MapValue d, MapValue newStatus, Instant now) {
    Optional<MapValue> current = DeploymentUtil.getCondition(Nested.map(d, "status"),
        DeploymentUtil.PROGRESSING);
    if (!DeploymentUtil.hasProgressDeadline(d) || current.isEmpty()) {
      return Optional.empty();
    }
    if (DeploymentUtil.deploymentComplete(d, newStatus)
        || Nested.str(current.get(), "reason").equals(DeploymentUtil.TIMED_OUT)) {
      return Optional.empty();
    }
    Instant lastUpdate = Pods.time(current.get(), "lastUpdateTime").orElse(now);
    Duration after = Duration.between(now, lastUpdate.plusSeconds(
        Nested.integer(d, "spec", "progressDeadlineSeconds")));
    // under a second: at once (kube rate-limits that requeue)
    return Optional.of(after.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ZERO : after);
  }

  // ---- writes ----

  /** A status write of {@code d} with {@code status}; the Deployment as the server now has it. */
  private MapValue updateStatus(MapValue d, MapValue status) {
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, DEPLOYMENTS)
        .namespace(Meta.metaString(d, "namespace")).name(Meta.metaString(d, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user)
        .body(d.with("status", status)).build()).orThrow();
  }

  /** The Deployment as kube's recorder references it. */
  private static EventRecorder.InvolvedObject involved(MapValue d) {
    return EventRecorder.InvolvedObject.of("apps/v1", "Deployment", d);
  }

  private ResourceClient setClient(String namespace) {
    return context.client(REPLICA_SETS, user).namespace(namespace);
  }

  private ResourceClient deploymentClient(String namespace) {
    return context.client(DEPLOYMENTS, user).namespace(namespace);
  }
}
