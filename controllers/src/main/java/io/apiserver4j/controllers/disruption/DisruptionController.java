/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.disruption;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GoStrings;
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
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's disruption controller (pkg/controller/disruption/disruption.go): keeps each
 * PodDisruptionBudget's status. {@code expectedPods} is the number of selected Pods for an
 * integer {@code minAvailable}, else the sum of the scales of the Pods' controllers
 * (a ReplicaSet's Deployment when it has one; every controller read through its {@code scale}
 * subresource); {@code desiredHealthy} is {@code minAvailable}, or the expected count less
 * {@code maxUnavailable}, percentages rounded up; {@code currentHealthy} counts ready Pods not
 * being deleted nor recorded in {@code disruptedPods} within the last
 * {@value #DELETION_TIMEOUT_SECONDS} s (entries older than that, or of Pods gone, are dropped,
 * and the budget rechecked on the server clock when the youngest expires);
 * {@code disruptionsAllowed} is their difference, never negative, and 0 while no Pod is
 * expected. The {@code DisruptionAllowed} condition says {@code SufficientPods} or
 * {@code InsufficientPods}; a sync that fails (a Pod whose controller cannot be found, a bad
 * percentage) writes kube's fail-safe status: no disruption allowed, reason {@code SyncFailed}
 * with the error as message. Writes as
 * {@code system:serviceaccount:kube-system:disruption-controller}.
 */
public final class DisruptionController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(DisruptionController.class);
  /** kube's {@code DeletionTimeout}: how long an evicted Pod may take to go. */
  static final long DELETION_TIMEOUT_SECONDS = 120;
  private static final GroupVersionResource PDBS =
      new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
  static final String CONDITION = "DisruptionAllowed";

  private final ControllerContext context;
  private final UserInfo user = ControllerContext.serviceAccount("disruption-controller");
  private final Informer pdbs;
  private final Informer pods;
  private final Informer replicaSets;
  private final WorkQueue<String> queue;
  /** kube's disruption controller records as {@code controllermanager}, not its own name. */
  private final EventRecorder events;
  private Workers workers;

  /** The {@code disruption} controller on {@code context}'s informers. */
  public DisruptionController(ControllerContext context) {
    this.context = context;
    this.queue = context.newQueue("disruption");
    this.events = new EventRecorder(context, user, "controllermanager");
    this.pdbs = context.informers().informer(new GroupResource("policy",
        "poddisruptionbudgets"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.replicaSets = context.informers().informer(new GroupResource("apps", "replicasets"));
    pdbs.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        queue.add(Pods.key(object));
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        queue.add(Pods.key(object));
      }

      @Override
      public void onDelete(MapValue object) {
        queue.add(Pods.key(object));
      }
    });
    pods.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue pod) {
        queueBudgets(pod);
      }

      @Override
      public void onUpdate(MapValue old, MapValue pod) {
        queueBudgets(pod);
        if (!Meta.labels(old).equals(Meta.labels(pod))) {
          queueBudgets(old);
        }
      }

      @Override
      public void onDelete(MapValue pod) {
        queueBudgets(pod);
      }
    });
  }

  @Override
  public void start() {
    workers = context.startWorkers("disruption", queue, 1, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's {@code getPdbForPod}: every budget of the namespace selecting the Pod. */
  private void queueBudgets(MapValue pod) {
    for (MapValue pdb : pdbs.list(Meta.metaString(pod, "namespace"))) {
      Optional<LabelSelector> sel = selector(pdb);
      // an empty policy/v1 selector selects every Pod of the namespace
      if (sel.isPresent() && sel.get().matches(Meta.labels(pod))) {
        queue.add(Pods.key(pdb));
      }
    }
  }

  /** The budget's selector; empty for none (it selects nothing) or one that cannot parse. */
  private static Optional<LabelSelector> selector(MapValue pdb) {
    Value s = Nested.getOrNull(pdb, "spec", "selector");
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabelSelectors.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** A sync that cannot compute the status: kube's fail-safe reason. */
  static final class SyncException extends RuntimeException {
    SyncException(String message) {
      super(message);
    }
  }

  /** kube's {@code sync}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = pdbs.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty()) {
      return Outcome.FORGET;
    }
    MapValue pdb = cached.get();
    try {
      trySync(pdb);
      return Outcome.FORGET;
    } catch (ConflictException e) {
      return Outcome.REQUEUE;
    } catch (SyncException e) {
      LOG.warn("Failed to sync PDB {}: {}", key, e.getMessage());
      failSafe(pdb, e.getMessage());
      return Outcome.REQUEUE;
    }
  }

  private void trySync(MapValue pdb) {
    String namespace = Meta.metaString(pdb, "namespace");
    Optional<LabelSelector> sel = selector(pdb);
    if (sel.isEmpty() && Nested.has(pdb, "spec", "selector")) {
      throw new SyncException("invalid label selector");
    }
    List<MapValue> selected = sel.isEmpty() ? List.of() : pods.list(namespace).stream()
        .filter(p -> sel.get().matches(Meta.labels(p))).toList();
    if (selected.isEmpty()) {
      events.normal(involved(pdb), "NoPods", "No matching pods found");
    }
    Counts counts;
    try {
      counts = expectedCounts(pdb, selected, this::scaleOf);
    } catch (SyncException e) {
      events.warning(involved(pdb), "CalculateExpectedPodCountFailed",
          "Failed to calculate the number of expected pods: " + e.getMessage());
      throw e;
    }
    if (usesExpectedScale(pdb)
        && selected.stream().anyMatch(p -> Pods.controllerRef(p).isEmpty())) {
      events.warning(involved(pdb), "UnmanagedPods", "Pods selected by this "
          + "PodDisruptionBudget (selector: "
          + GoStrings.labelSelector(Nested.getOrNull(pdb, "spec", "selector"))
          + ") were found to be unmanaged. As a result, the status of the PDB "
          + "cannot be calculated correctly, which may result in undefined behavior. To account "
          + "for these pods please set \".spec.minAvailable\" field of the PDB to an integer "
          + "value.");
    }
    Instant now = context.clock().instant();
    Map<String, Instant> disrupted = new LinkedHashMap<>();
    Optional<Instant> recheck = disruptedPods(selected, pdb, now, disrupted);
    long currentHealthy = countHealthy(selected, disrupted, now);
    updateStatus(pdb, currentHealthy, counts.desiredHealthy(), counts.expected(), disrupted, now);
    recheck.ifPresent(t -> queue.addAt(Pods.key(pdb), t));
  }

  /** Whether {@code getExpectedPodCount} sums the controllers' scales, and so finds unmanaged Pods. */
  private static boolean usesExpectedScale(MapValue pdb) {
    return Nested.getOrNull(pdb, "spec", "maxUnavailable") != null
        || Nested.getOrNull(pdb, "spec", "minAvailable")
            instanceof io.apiserver4j.core.StringValue;
  }


  /** The budget as kube's recorder references it. */
  private static EventRecorder.InvolvedObject involved(MapValue pdb) {
    return EventRecorder.InvolvedObject.of("policy/v1", "PodDisruptionBudget", pdb);
  }

  /** What {@code getExpectedPodCount} computes. */
  record Counts(long expected, long desiredHealthy) {}

  /** A controller's identity and scale: kube's {@code controllerAndScale}. */
  record Scale(String uid, long replicas) {}

  /** Looks up the scale of a Pod's controller; empty when it is not found. */
  interface ScaleFinder {
    Optional<Scale> find(MapValue controllerRef, String namespace);
  }

  /** kube's {@code getExpectedPodCount}. */
  static Counts expectedCounts(MapValue pdb, List<MapValue> pods, ScaleFinder finder) {
    Value maxUnavailable = Nested.getOrNull(pdb, "spec", "maxUnavailable");
    Value minAvailable = Nested.getOrNull(pdb, "spec", "minAvailable");
    if (maxUnavailable != null) {
      long expected = expectedScale(pods, finder);
      long max = scaled(maxUnavailable, expected);
      return new Counts(expected, Math.max(0, expected - max));
    }
    if (minAvailable != null) {
      if (minAvailable instanceof io.apiserver4j.core.StringValue) {
        long expected = expectedScale(pods, finder);
        return new Counts(expected, scaled(minAvailable, expected));
      }
      return new Counts(pods.size(), Nested.integer(pdb, "spec", "minAvailable"));
    }
    return new Counts(0, 0);
  }

  /**
   * kube's {@code getExpectedScale}: the sum of the scales of the Pods' controllers, each
   * counted once; Pods without a controller are skipped.
   */
  static long expectedScale(List<MapValue> pods, ScaleFinder finder) {
    Map<String, Long> scales = new LinkedHashMap<>();
    for (MapValue pod : pods) {
      Optional<MapValue> ref = Pods.controllerRef(pod);
      if (ref.isEmpty()) {
        continue;
      }
      if (scales.containsKey(Nested.str(ref.get(), "uid"))) {
        continue;
      }
      Optional<Scale> scale = finder.find(ref.get(), Meta.metaString(pod, "namespace"));
      if (scale.isEmpty()) {
        throw new SyncException("found no controllers for pod \"" + Meta.metaString(pod, "name")
            + "\"");
      }
      scales.put(scale.get().uid(), scale.get().replicas());
    }
    return scales.values().stream().mapToLong(Long::longValue).sum();
  }

  /** {@code intstr.GetScaledValueFromIntOrPercent} rounding up. */
  static long scaled(Value intOrPercent, long total) {
    if (intOrPercent instanceof io.apiserver4j.core.StringValue s) {
      String v = s.value();
      if (!v.endsWith("%")) {
        throw new SyncException("invalid type: string is not a percentage");
      }
      long percent;
      try {
        percent = Long.parseLong(v.substring(0, v.length() - 1));
      } catch (NumberFormatException e) {
        throw new SyncException("invalid value for IntOrString: invalid value \"" + v + "\": "
            + e.getMessage());
      }
      return (long) Math.ceil(percent * total / 100.0);
    }
    return Nested.integer(intOrPercent);
  }

  /**
   * kube's finders: a ReplicaSet not controlled by a Deployment, else the Deployment, else any
   * kind with a {@code scale} subresource; the scale's UID must be the reference's.
   */
  private Optional<Scale> scaleOf(MapValue ref, String namespace) {
    String apiVersion = Nested.str(ref, "apiVersion");
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/'))
        : "";
    String kind = Nested.str(ref, "kind");
    if (kind.equals("ReplicaSet") && (group.equals("apps") || group.equals("extensions"))) {
      Optional<MapValue> rs = replicaSets.get(namespace, Nested.str(ref, "name"))
          .filter(r -> Meta.metaString(r, "uid").equals(Nested.str(ref, "uid")));
      if (rs.isEmpty()) {
        return Optional.empty();
      }
      Optional<MapValue> owner = Pods.controllerRef(rs.get());
      if (owner.isPresent() && Nested.str(owner.get(), "kind").equals("Deployment")) {
        return scaleSubresource(owner.get(), namespace);
      }
    }
    return scaleSubresource(ref, namespace);
  }

  private Optional<Scale> scaleSubresource(MapValue ref, String namespace) {
    String apiVersion = Nested.str(ref, "apiVersion");
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/'))
        : "";
    String kind = Nested.str(ref, "kind");
    for (ResourceDefinition d : context.api().registry().all()) {
      if (!d.kind().group().equals(group) || !d.kind().kind().equals(kind)
          || !d.servesSubresource("scale")) {
        continue;
      }
      try {
        MapValue scale = context.api().handle(ApiRequest.builder(ApiRequest.Verb.GET,
            d.resource()).namespace(namespace).name(Nested.str(ref, "name"))
            .subresource("scale").user(user).build()).orThrow();
        if (!Meta.metaString(scale, "uid").equals(Nested.str(ref, "uid"))) {
          return Optional.empty();
        }
        return Optional.of(new Scale(Nested.str(ref, "uid"),
            Nested.integer(scale, "spec", "replicas")));
      } catch (NotFoundException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code buildDisruptedPodMap}: the entries of selected Pods not being deleted whose
   * deletion is still expected; returns when the earliest of them expires.
   */
  static Optional<Instant> disruptedPods(List<MapValue> pods, MapValue pdb, Instant now,
      Map<String, Instant> out) {
    MapValue recorded = Nested.mapOrNull(pdb, "status", "disruptedPods");
    if (recorded == null) {
      return Optional.empty();
    }
    Instant recheck = null;
    for (MapValue pod : pods) {
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        continue;
      }
      String name = Meta.metaString(pod, "name");
      Optional<Instant> since = Pods.time(recorded, name);
      if (since.isEmpty()) {
        continue;
      }
      Instant expected = since.get().plusSeconds(DELETION_TIMEOUT_SECONDS);
      if (expected.isBefore(now)) {
        LOG.info("Pod {}/{} was expected to be deleted but it wasn't, updating PDB",
            Meta.metaString(pod, "namespace"), name);
      } else {
        if (recheck == null || expected.isBefore(recheck)) {
          recheck = expected;
        }
        out.put(name, since.get());
      }
    }
    return Optional.ofNullable(recheck);
  }

  /** kube's {@code countHealthyPods}. */
  static long countHealthy(List<MapValue> pods, Map<String, Instant> disrupted, Instant now) {
    long n = 0;
    for (MapValue pod : pods) {
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        continue;
      }
      Instant since = disrupted.get(Meta.metaString(pod, "name"));
      if (since != null && since.plusSeconds(DELETION_TIMEOUT_SECONDS).isAfter(now)) {
        continue;
      }
      if (Pods.ready(pod)) {
        n++;
      }
    }
    return n;
  }

  /** kube's {@code updatePdbStatus}. */
  private void updateStatus(MapValue pdb, long currentHealthy, long desiredHealthy,
      long expected, Map<String, Instant> disrupted, Instant now) {
    long allowed = currentHealthy - desiredHealthy;
    if (expected <= 0 || allowed <= 0) {
      allowed = 0;
    }
    MapValue status = Nested.map(pdb, "status");
    MapValue.Builder dp = MapValue.builder();
    disrupted.forEach((k, v) -> dp.put(k, Value.of(Meta.formatTime(v))));
    MapValue disruptedValue = dp.build();
    MapValue oldDisrupted = Nested.mapOrNull(status, "disruptedPods");
    long generation = Meta.generation(pdb);
    if (Nested.integer(status, "currentHealthy") == currentHealthy
        && Nested.integer(status, "desiredHealthy") == desiredHealthy
        && Nested.integer(status, "expectedPods") == expected
        && Nested.integer(status, "disruptionsAllowed") == allowed
        && (oldDisrupted == null ? MapValue.empty() : oldDisrupted).equals(disruptedValue)
        && Nested.integer(status, "observedGeneration") == generation
        && conditionsUpToDate(status, generation, allowed)) {
      return;
    }
    MapValue.Builder b = MapValue.builder();
    if (!disruptedValue.isEmpty()) {
      b.put("disruptedPods", disruptedValue);
    }
    b.put("disruptionsAllowed", Value.of(allowed)).put("currentHealthy", Value.of(currentHealthy))
        .put("desiredHealthy", Value.of(desiredHealthy)).put("expectedPods", Value.of(expected))
        .put("observedGeneration", Value.of(generation));
    ListValue conditions = allowed > 0
        ? setCondition(status, "True", "SufficientPods", "", generation, now)
        : setCondition(status, "False", "InsufficientPods", "", generation, now);
    b.put("conditions", conditions);
    writeStatus(pdb, b.build());
  }

  /** kube's {@code ConditionsAreUpToDate}. */
  private static boolean conditionsUpToDate(MapValue status, long generation, long allowed) {
    Optional<Value> c = condition(status);
    if (c.isEmpty() || Nested.integer(status, "observedGeneration") != generation
        || Nested.integer(c.get(), "observedGeneration")
            != Nested.integer(status, "observedGeneration")) {
      return false;
    }
    return allowed > 0
        ? Nested.str(c.get(), "status").equals("True")
            && Nested.str(c.get(), "reason").equals("SufficientPods")
        : Nested.str(c.get(), "status").equals("False")
            && Nested.str(c.get(), "reason").equals("InsufficientPods");
  }

  private static Optional<Value> condition(MapValue status) {
    return Nested.list(status, "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(CONDITION)).findFirst();
  }

  /**
   * {@code meta.SetStatusCondition} of {@code DisruptionAllowed}: the transition time moves
   * only when the status changes.
   */
  static ListValue setCondition(MapValue status, String conditionStatus, String reason,
      String message, long observedGeneration, Instant now) {
    ListValue.Builder out = ListValue.builder();
    boolean found = false;
    for (Value c : Nested.list(status, "conditions")) {
      if (!(c instanceof MapValue m) || !Nested.str(c, "type").equals(CONDITION)) {
        out.add(c);
        continue;
      }
      found = true;
      MapValue updated = m.with("reason", Value.of(reason)).with("message", Value.of(message))
          .with("observedGeneration", Value.of(observedGeneration));
      if (!Nested.str(m, "status").equals(conditionStatus)) {
        updated = updated.with("status", Value.of(conditionStatus))
            .with("lastTransitionTime", Value.of(Meta.formatTime(now)));
      }
      out.add(updated);
    }
    if (!found) {
      out.add(MapValue.ofEntries("type", Value.of(CONDITION), "status", Value.of(conditionStatus),
          "observedGeneration", Value.of(observedGeneration),
          "lastTransitionTime", Value.of(Meta.formatTime(now)), "reason", Value.of(reason),
          "message", Value.of(message)));
    }
    return out.build();
  }

  /** kube's {@code failSafe}: no disruption allowed, reason {@code SyncFailed}. */
  private void failSafe(MapValue pdb, String message) {
    MapValue status = Nested.map(pdb, "status");
    MapValue updated = status.with("disruptionsAllowed", Value.of(0L)).with("conditions",
        setCondition(status, "False", "SyncFailed", message,
            Nested.integer(status, "observedGeneration"), context.clock().instant()));
    try {
      writeStatus(pdb, updated);
    } catch (StatusException e) {
      LOG.warn("writing the fail-safe status of PDB {} failed: {}", Pods.key(pdb),
          e.getMessage());
    }
  }

  private void writeStatus(MapValue pdb, MapValue status) {
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PDBS)
        .namespace(Meta.metaString(pdb, "namespace")).name(Meta.metaString(pdb, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user)
        .body(pdb.with("status", status)).build()).orThrow();
  }
}
