/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.deployment;

import io.apiserver4j.controllers.internal.PodTemplateHash;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * kube's pkg/controller/deployment/util (deployment_util.go) and the ReplicaSet orderings of
 * pkg/controller, on Deployment and ReplicaSet values. Pure functions: a change returns a new
 * value, never changes an argument.
 */
final class DeploymentUtil {
  /** {@code apps.DefaultDeploymentUniqueLabelKey}. */
  static final String HASH_LABEL = "pod-template-hash";
  static final String REVISION = "deployment.kubernetes.io/revision";
  static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
  static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
  static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
  /** {@code apps.DeprecatedRollbackTo}: the round-tripped extensions/v1beta1 rollbackTo. */
  static final String ROLLBACK_TO = "deprecated.deployment.rollback.to";
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  static final String REPLICA_SET_UPDATED = "ReplicaSetUpdated";
  static final String FAILED_RS_CREATE = "ReplicaSetCreateError";
  static final String NEW_REPLICA_SET = "NewReplicaSetCreated";
  static final String FOUND_NEW_RS = "FoundNewReplicaSet";
  static final String NEW_RS_AVAILABLE = "NewReplicaSetAvailable";
  static final String TIMED_OUT = "ProgressDeadlineExceeded";
  static final String PAUSED = "DeploymentPaused";
  static final String RESUMED = "DeploymentResumed";
  static final String MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable";
  static final String MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable";

  static final String PROGRESSING = "Progressing";
  static final String AVAILABLE = "Available";
  static final String REPLICA_FAILURE = "ReplicaFailure";

  /** kube's {@code math.MaxInt32} sentinel for "no deadline" and "no limit". */
  private static final long MAX_INT32 = Integer.MAX_VALUE;

  private static final java.util.Set<String> ANNOTATIONS_TO_SKIP = java.util.Set.of(
      LAST_APPLIED, REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, ROLLBACK_TO);

  private DeploymentUtil() {}

  // ---- replicas and fenceposts ----

  /** {@code *spec.replicas} (the server defaults it to 1). */
  static long replicas(MapValue object) {
    return Nested.has(object, "spec", "replicas") ? Nested.integer(object, "spec", "replicas") : 1;
  }

  static MapValue withReplicas(MapValue object, long replicas) {
    return Nested.set(object, Value.of(replicas), "spec", "replicas");
  }

  static boolean isRollingUpdate(MapValue d) {
    return Nested.str(d, "spec", "strategy", "type").equals("RollingUpdate");
  }

  /**
   * kube's {@code intstr.GetScaledValueFromIntOrPercent}: an integer as is, {@code "N%"} of
   * {@code total} rounded up or down.
   *
   * @throws IllegalArgumentException for a string that is not a percentage
   */
  static long scaledValue(Value intOrPercent, long total, boolean roundUp) {
    if (intOrPercent == null || intOrPercent.isNull()) {
      return 0;
    }
    if (intOrPercent.kind() != Value.Kind.STRING) {
      return Nested.integer(intOrPercent);
    }
    String s = Nested.str(intOrPercent);
    if (!s.endsWith("%")) {
      throw new IllegalArgumentException("invalid value for IntOrString: invalid type: string is "
          + "not a percentage");
    }
    long percent;
    try {
      percent = Long.parseLong(s.substring(0, s.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid value \"" + s + "\": " + e.getMessage(), e);
    }
    // in float64, as kube computes it
    double scaled = (double) percent * (double) total / 100;
    return (long) (roundUp ? Math.ceil(scaled) : Math.floor(scaled));
  }

  /** kube's {@code ResolveFenceposts}: {maxSurge, maxUnavailable}, never both zero. */
  static long[] resolveFenceposts(Value maxSurge, Value maxUnavailable, long desired) {
    long surge = scaledValue(maxSurge, desired, true);
    long unavailable = scaledValue(maxUnavailable, desired, false);
    if (surge == 0 && unavailable == 0) {
      // rounding down may leave both at zero: then surge might be blocked by quota, so allow one
      unavailable = 1;
    }
    return new long[] {surge, unavailable};
  }

  /** kube's {@code MaxSurge}: 0 unless rolling. */
  static long maxSurge(MapValue d) {
    if (!isRollingUpdate(d)) {
      return 0;
    }
    return resolveFenceposts(Nested.getOrNull(d, "spec", "strategy", "rollingUpdate", "maxSurge"),
        Nested.getOrNull(d, "spec", "strategy", "rollingUpdate", "maxUnavailable"),
        replicas(d))[0];
  }

  /** kube's {@code MaxUnavailable}: 0 unless rolling with replicas, at most the replicas. */
  static long maxUnavailable(MapValue d) {
    long replicas = replicas(d);
    if (!isRollingUpdate(d) || replicas == 0) {
      return 0;
    }
    long unavailable = resolveFenceposts(
        Nested.getOrNull(d, "spec", "strategy", "rollingUpdate", "maxSurge"),
        Nested.getOrNull(d, "spec", "strategy", "rollingUpdate", "maxUnavailable"), replicas)[1];
    return Math.min(unavailable, replicas);
  }

  /** kube's {@code MinAvailable}: 0 unless rolling. */
  static long minAvailable(MapValue d) {
    return isRollingUpdate(d) ? replicas(d) - maxUnavailable(d) : 0;
  }

  /** kube's {@code NewRSNewReplicas}: the replicas the new set may have now. */
  static long newRSNewReplicas(MapValue d, List<MapValue> allRSs, MapValue newRS) {
    String type = Nested.str(d, "spec", "strategy", "type");
    switch (type) {
      case "RollingUpdate" -> {
        long surge = scaledValue(
            Nested.getOrNull(d, "spec", "strategy", "rollingUpdate", "maxSurge"), replicas(d),
            true);
        long current = replicaCount(allRSs);
        long maxTotal = replicas(d) + surge;
        if (current >= maxTotal) {
          return replicas(newRS);
        }
        long scaleUp = Math.min(maxTotal - current, replicas(d) - replicas(newRS));
        return replicas(newRS) + scaleUp;
      }
      case "Recreate" -> {
        return replicas(d);
      }
      default -> throw new IllegalArgumentException("deployment type " + type
          + " isn't supported");
    }
  }

  /** kube's {@code IsSaturated}: the new set has, wants and makes available all replicas. */
  static boolean isSaturated(MapValue d, MapValue rs) {
    if (rs == null) {
      return false;
    }
    String desired = Meta.annotations(rs).get(DESIRED_REPLICAS);
    long parsed;
    try {
      parsed = Integer.parseInt(desired == null ? "" : desired);
    } catch (NumberFormatException e) {
      return false;
    }
    long replicas = replicas(d);
    return replicas(rs) == replicas && parsed == replicas
        && Nested.integer(rs, "status", "availableReplicas") == replicas;
  }

  /** kube's {@code GetProportion}: what {@code rs} takes of a proportional scaling. */
  static long proportion(MapValue rs, MapValue d, long toAdd, long added) {
    if (rs == null || replicas(rs) == 0 || toAdd == 0 || toAdd == added) {
      return 0;
    }
    long fraction = replicaSetFraction(rs, d);
    long allowed = toAdd - added;
    // never past what may still be added (scaling up) or removed (scaling down)
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** kube's {@code getReplicaSetFraction}. */
  static long replicaSetFraction(MapValue rs, MapValue d) {
    if (replicas(d) == 0) {
      return -replicas(rs);
    }
    long deploymentReplicas = replicas(d) + maxSurge(d);
    OptionalLong annotated = nonNegativeInt32Annotation(rs, MAX_REPLICAS);
    // without the annotation (or with a zero one) kube falls back to the current size: inexact,
    // kept in bounds by the min/max of proportion()
    long before = annotated.isPresent() && annotated.getAsLong() != 0 ? annotated.getAsLong()
        : Nested.integer(d, "status", "replicas");
    if (before == 0) {
      // an unsynced Deployment: nothing to scale from
      return 0;
    }
    double size = (double) (replicas(rs) * deploymentReplicas) / (double) before;
    return roundToInt32(size) - replicas(rs);
  }

  /** client-go's {@code integer.RoundToInt32}: half away from zero, truncated to int32. */
  static long roundToInt32(double a) {
    return a < 0 ? (int) (a - 0.5) : (int) (a + 0.5);
  }

  /**
   * kube's {@code getNonNegativeInt32FromAnnotation}: the annotation as an unsigned decimal of
   * at most {@code math.MaxInt32}; empty when absent or not such a number.
   */
  static OptionalLong nonNegativeInt32Annotation(MapValue object, String key) {
    String v = Meta.annotations(object).get(key);
    if (v == null || v.isEmpty() || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return OptionalLong.empty();
    }
    try {
      long parsed = Long.parseLong(v);
      return parsed <= Integer.MAX_VALUE ? OptionalLong.of(parsed) : OptionalLong.empty();
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  // ---- counts ----

  /** {@code GetReplicaCountForReplicaSets}: the sum of spec.replicas. */
  static long replicaCount(List<MapValue> sets) {
    return sets.stream().filter(s -> s != null).mapToLong(DeploymentUtil::replicas).sum();
  }

  /** The sum of a status count over the sets. */
  static long statusCount(List<MapValue> sets, String field) {
    return sets.stream().filter(s -> s != null)
        .mapToLong(s -> Nested.integer(s, "status", field)).sum();
  }

  /** {@code FilterActiveReplicaSets}: the sets with replicas. */
  static List<MapValue> active(List<MapValue> sets) {
    return sets.stream().filter(s -> s != null && replicas(s) > 0).toList();
  }

  // ---- new and old sets ----

  /** kube's {@code FindNewReplicaSet}: the oldest set whose template is the Deployment's. */
  static Optional<MapValue> findNewReplicaSet(MapValue d, List<MapValue> sets) {
    MapValue template = Nested.map(d, "spec", "template");
    return sets.stream().sorted(BY_CREATION)
        .filter(s -> PodTemplateHash.equalIgnoreHash(Nested.map(s, "spec", "template"), template))
        .findFirst();
  }

  /** kube's {@code FindOldReplicaSets}: the old sets with replicas, and all old sets. */
  record OldSets(List<MapValue> required, List<MapValue> all) {}

  static OldSets findOldReplicaSets(MapValue d, List<MapValue> sets) {
    Optional<String> newUid = findNewReplicaSet(d, sets).map(s -> Meta.metaString(s, "uid"));
    List<MapValue> required = new ArrayList<>();
    List<MapValue> all = new ArrayList<>();
    for (MapValue s : sets) {
      if (newUid.isPresent() && newUid.get().equals(Meta.metaString(s, "uid"))) {
        continue;
      }
      all.add(s);
      if (replicas(s) != 0) {
        required.add(s);
      }
    }
    return new OldSets(required, all);
  }

  /** kube's {@code FindActiveOrLatest}. */
  static Optional<MapValue> findActiveOrLatest(MapValue newRS, List<MapValue> oldRSs) {
    if (newRS == null && oldRSs.isEmpty()) {
      return Optional.empty();
    }
    List<MapValue> sortedOld = new ArrayList<>(oldRSs);
    sortedOld.sort(BY_CREATION.reversed());
    List<MapValue> all = new ArrayList<>(sortedOld);
    all.add(newRS);
    List<MapValue> active = active(all);
    return switch (active.size()) {
      case 0 -> Optional.of(newRS != null ? newRS : sortedOld.get(0));
      case 1 -> Optional.of(active.get(0));
      default -> Optional.empty();
    };
  }

  // ---- orderings (pkg/controller) ----

  /** {@code ReplicaSetsByCreationTimestamp}: older first, then by name. */
  static final Comparator<MapValue> BY_CREATION = Comparator
      .comparing((MapValue s) -> Pods.time(s, "metadata", "creationTimestamp")
          .orElse(Instant.EPOCH))
      .thenComparing(s -> Meta.metaString(s, "name"));

  /** {@code ReplicaSetsBySizeOlder}: larger first, then older first. */
  static final Comparator<MapValue> BY_SIZE_OLDER = Comparator
      .comparingLong((MapValue s) -> -replicas(s)).thenComparing(BY_CREATION);

  /** {@code ReplicaSetsBySizeNewer}: larger first, then newer first. */
  static final Comparator<MapValue> BY_SIZE_NEWER = Comparator
      .comparingLong((MapValue s) -> -replicas(s)).thenComparing(BY_CREATION.reversed());

  /** {@code ReplicaSetsByRevision}: lower revision first; unparsable or equal by creation. */
  static final Comparator<MapValue> BY_REVISION = (a, b) -> {
    OptionalLong ra = revision(a);
    OptionalLong rb = revision(b);
    if (ra.isEmpty() || rb.isEmpty() || ra.getAsLong() == rb.getAsLong()) {
      return BY_CREATION.compare(a, b);
    }
    return Long.compare(ra.getAsLong(), rb.getAsLong());
  };

  // ---- revisions and annotations ----

  /** kube's {@code Revision}: 0 without the annotation, empty when it is not a number. */
  static OptionalLong revision(MapValue object) {
    String v = Meta.annotations(object).get(REVISION);
    if (v == null) {
      return OptionalLong.of(0);
    }
    try {
      return OptionalLong.of(Long.parseLong(v));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** kube's {@code MaxRevision}. */
  static long maxRevision(List<MapValue> sets) {
    long max = 0;
    for (MapValue s : sets) {
      OptionalLong v = revision(s);
      if (v.isPresent() && v.getAsLong() > max) {
        max = v.getAsLong();
      }
    }
    return max;
  }

  /** kube's {@code LastRevision}: the second highest revision. */
  static long lastRevision(List<MapValue> sets) {
    long max = 0;
    long second = 0;
    for (MapValue s : sets) {
      OptionalLong r = revision(s);
      if (r.isEmpty()) {
        continue;
      }
      long v = r.getAsLong();
      if (v >= max) {
        second = max;
        max = v;
      } else if (v > second) {
        second = v;
      }
    }
    return second;
  }

  static MapValue withAnnotations(MapValue object, Map<String, String> annotations) {
    MapValue.Builder b = MapValue.builder();
    annotations.forEach((k, v) -> b.put(k, Value.of(v)));
    return Nested.set(object, b.build(), "metadata", "annotations");
  }

  static MapValue withLabels(MapValue object, Map<String, String> labels) {
    MapValue.Builder b = MapValue.builder();
    labels.forEach((k, v) -> b.put(k, Value.of(v)));
    return Nested.set(object, b.build(), "metadata", "labels");
  }

  /** A result of an annotation update: the object and whether it changed. */
  record Annotated(MapValue object, boolean changed) {}

  /** kube's {@code SetNewReplicaSetAnnotations}. */
  static Annotated setNewReplicaSetAnnotations(MapValue d, MapValue rs, String newRevision,
      boolean exists, int revisionHistoryLimitInChars) {
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(rs));
    boolean changed = false;
    for (Map.Entry<String, String> e : Meta.annotations(d).entrySet()) {
      // the Deployment's own revision may be stale; the set's is authoritative
      if (ANNOTATIONS_TO_SKIP.contains(e.getKey())
          || e.getValue().equals(annotations.get(e.getKey()))) {
        continue;
      }
      annotations.put(e.getKey(), e.getValue());
      changed = true;
    }
    String oldRevision = annotations.get(REVISION);
    long oldRevisionInt = 0;
    if (oldRevision != null && !oldRevision.isEmpty()) {
      try {
        oldRevisionInt = Long.parseLong(oldRevision);
      } catch (NumberFormatException e) {
        return new Annotated(rs, false);
      }
    }
    long newRevisionInt;
    try {
      newRevisionInt = Long.parseLong(newRevision);
    } catch (NumberFormatException e) {
      return new Annotated(rs, false);
    }
    if (oldRevisionInt < newRevisionInt) {
      annotations.put(REVISION, newRevision);
      changed = true;
      if (oldRevision != null) {
        // rolling back to this set: keep the revisions it served before
        String history = annotations.getOrDefault(REVISION_HISTORY, "");
        if (history.isEmpty()) {
          annotations.put(REVISION_HISTORY, oldRevision);
        } else {
          String[] old = history.split(",", -1);
          int total = history.length() + oldRevision.length() + 1;
          int start = 0;
          while (total > revisionHistoryLimitInChars && start < old.length) {
            total = total - old[start].length() - 1;
            start++;
          }
          if (total <= revisionHistoryLimitInChars) {
            List<String> kept = new ArrayList<>(List.of(old).subList(start, old.length));
            kept.add(oldRevision);
            annotations.put(REVISION_HISTORY, String.join(",", kept));
          }
        }
      }
    }
    MapValue out = withAnnotations(rs, annotations);
    if (!exists) {
      Annotated replicas = setReplicasAnnotations(out, replicas(d), replicas(d) + maxSurge(d));
      out = replicas.object();
      changed |= replicas.changed();
    }
    return new Annotated(changed ? out : rs, changed);
  }

  /** kube's {@code SetReplicasAnnotations}: desired-replicas and max-replicas. */
  static Annotated setReplicasAnnotations(MapValue rs, long desired, long max) {
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(rs));
    boolean changed = false;
    if (!String.valueOf(desired).equals(annotations.get(DESIRED_REPLICAS))) {
      annotations.put(DESIRED_REPLICAS, String.valueOf(desired));
      changed = true;
    }
    if (!String.valueOf(max).equals(annotations.get(MAX_REPLICAS))) {
      annotations.put(MAX_REPLICAS, String.valueOf(max));
      changed = true;
    }
    return changed ? new Annotated(withAnnotations(rs, annotations), true)
        : new Annotated(rs, false);
  }

  /** kube's {@code ReplicasAnnotationsNeedUpdate}. */
  static boolean replicasAnnotationsNeedUpdate(MapValue rs, long desired, long max) {
    Map<String, String> a = Meta.annotations(rs);
    return !String.valueOf(desired).equals(a.get(DESIRED_REPLICAS))
        || !String.valueOf(max).equals(a.get(MAX_REPLICAS));
  }

  /** kube's {@code SetDeploymentAnnotationsTo}: the set's annotations, kept ones aside. */
  static MapValue setDeploymentAnnotationsTo(MapValue d, MapValue rollbackTo) {
    Map<String, String> annotations = new LinkedHashMap<>();
    Meta.annotations(d).forEach((k, v) -> {
      if (ANNOTATIONS_TO_SKIP.contains(k)) {
        annotations.put(k, v);
      }
    });
    Meta.annotations(rollbackTo).forEach((k, v) -> {
      if (!ANNOTATIONS_TO_SKIP.contains(k)) {
        annotations.put(k, v);
      }
    });
    return withAnnotations(d, annotations);
  }

  /** kube's {@code SetDeploymentRevision}. */
  static Annotated setDeploymentRevision(MapValue d, String revision) {
    Map<String, String> annotations = new LinkedHashMap<>(Meta.annotations(d));
    if (revision.equals(annotations.get(REVISION))) {
      return new Annotated(d, false);
    }
    annotations.put(REVISION, revision);
    return new Annotated(withAnnotations(d, annotations), true);
  }

  // ---- conditions and progress ----

  static boolean hasProgressDeadline(MapValue d) {
    return Nested.has(d, "spec", "progressDeadlineSeconds")
        && Nested.integer(d, "spec", "progressDeadlineSeconds") != MAX_INT32;
  }

  static boolean hasRevisionHistoryLimit(MapValue d) {
    return Nested.has(d, "spec", "revisionHistoryLimit")
        && Nested.integer(d, "spec", "revisionHistoryLimit") != MAX_INT32;
  }

  /** kube's {@code NewDeploymentCondition} at {@code now}. */
  static MapValue condition(String type, String status, String reason, String message,
      Instant now) {
    String t = Meta.formatTime(now);
    return MapValue.ofEntries("type", Value.of(type), "status", Value.of(status),
        "lastUpdateTime", Value.of(t), "lastTransitionTime", Value.of(t),
        "reason", Value.of(reason), "message", Value.of(message));
  }

  static Optional<MapValue> getCondition(MapValue status, String type) {
    for (Value c : Nested.list(status, "conditions")) {
      if (Nested.str(c, "type").equals(type) && c instanceof MapValue m) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code SetDeploymentCondition}: unchanged when a condition of the type has the same
   * status and reason; keeps the transition time when only the reason changes; appends last.
   */
  static MapValue setCondition(MapValue status, MapValue condition) {
    String type = Nested.str(condition, "type");
    Optional<MapValue> current = getCondition(status, type);
    if (current.isPresent()
        && Nested.str(current.get(), "status").equals(Nested.str(condition, "status"))
        && Nested.str(current.get(), "reason").equals(Nested.str(condition, "reason"))) {
      return status;
    }
    MapValue c = condition;
    if (current.isPresent()
        && Nested.str(current.get(), "status").equals(Nested.str(condition, "status"))) {
      c = copyField(c, current.get(), "lastTransitionTime");
    }
    List<Value> conditions = new ArrayList<>(
        Nested.list(removeCondition(status, type), "conditions"));
    conditions.add(c);
    return status.with("conditions", ListValue.of(conditions));
  }

  static MapValue removeCondition(MapValue status, String type) {
    List<Value> kept = Nested.list(status, "conditions").stream()
        .filter(c -> !Nested.str(c, "type").equals(type)).toList();
    return kept.isEmpty() ? status.without("conditions")
        : status.with("conditions", ListValue.of(kept));
  }

  static MapValue copyField(MapValue to, MapValue from, String field) {
    Value v = from.getOrNull(field);
    return v == null ? to.without(field) : to.with(field, v);
  }

  /** kube's {@code DeploymentComplete}. */
  static boolean deploymentComplete(MapValue d, MapValue newStatus) {
    long replicas = replicas(d);
    return Nested.integer(newStatus, "updatedReplicas") == replicas
        && Nested.integer(newStatus, "replicas") == replicas
        && Nested.integer(newStatus, "availableReplicas") == replicas
        && Nested.integer(newStatus, "observedGeneration") >= Meta.generation(d);
  }

  /** kube's {@code DeploymentProgressing}: more updated, ready or available, or fewer old. */
  static boolean deploymentProgressing(MapValue d, MapValue newStatus) {
    MapValue old = Nested.map(d, "status");
    long oldOld = Nested.integer(old, "replicas") - Nested.integer(old, "updatedReplicas");
    long newOld = Nested.integer(newStatus, "replicas")
        - Nested.integer(newStatus, "updatedReplicas");
    return Nested.integer(newStatus, "updatedReplicas") > Nested.integer(old, "updatedReplicas")
        || newOld < oldOld
        || Nested.integer(newStatus, "readyReplicas") > Nested.integer(old, "readyReplicas")
        || Nested.integer(newStatus, "availableReplicas")
            > Nested.integer(old, "availableReplicas");
  }

  /** kube's {@code DeploymentTimedOut}: no progress since the deadline. */
  static boolean deploymentTimedOut(MapValue d, MapValue newStatus, Instant now) {
    if (!hasProgressDeadline(d)) {
      return false;
    }
    Optional<MapValue> condition = getCondition(newStatus, PROGRESSING);
    if (condition.isEmpty()) {
      return false;
    }
    String reason = Nested.str(condition.get(), "reason");
    // a completed rollout cannot time out until a new one starts
    if (reason.equals(NEW_RS_AVAILABLE)) {
      return false;
    }
    if (reason.equals(TIMED_OUT)) {
      return true;
    }
    Optional<Instant> from = Pods.time(condition.get(), "lastUpdateTime");
    long deadline = Nested.integer(d, "spec", "progressDeadlineSeconds");
    return from.orElse(Instant.EPOCH).plusSeconds(deadline).isBefore(now);
  }
}
