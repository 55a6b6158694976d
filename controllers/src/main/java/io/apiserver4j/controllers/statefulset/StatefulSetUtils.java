/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.statefulset;

import io.apiserver4j.controllers.internal.ControllerHistory;
import io.apiserver4j.controllers.internal.IntOrPercent;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's stateful_set_utils.go on StatefulSet and Pod values: ordinals and names, the identity
 * and storage a member Pod must have, new member Pods from a (revision of the) template, the
 * revision patch, and the PVC owner references of the retention policy. Pure functions.
 */
final class StatefulSetUtils {
  /** apps/v1 {@code ControllerRevisionHashLabelKey}: the revision name a Pod was made from. */
  static final String REVISION_LABEL = "controller-revision-hash";
  /** apps/v1 {@code StatefulSetPodNameLabel}. */
  static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
  /** apps/v1 {@code PodIndexLabel}. */
  static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
  private static final Pattern POD_NAME = Pattern.compile("(.*)-([0-9]+)$");

  private StatefulSetUtils() {}

  /** The parent name and ordinal in a member Pod's name; ordinal -1 when it has none. */
  record ParentAndOrdinal(String parent, int ordinal) {}

  /** kube's {@code getParentNameAndOrdinal}. */
  static ParentAndOrdinal parentAndOrdinal(String podName) {
    Matcher m = POD_NAME.matcher(podName);
    if (!m.matches()) {
      return new ParentAndOrdinal("", -1);
    }
    int ordinal = -1;
    try {
      // Go's ParseInt(s, 10, 32): out of the int32 range is an error
      ordinal = Integer.parseInt(m.group(2));
    } catch (NumberFormatException e) {
      // not an ordinal
    }
    return new ParentAndOrdinal(m.group(1), ordinal);
  }

  static int ordinal(MapValue pod) {
    return parentAndOrdinal(Meta.metaString(pod, "name")).ordinal();
  }

  /** kube's {@code getStartOrdinal}: {@code .spec.ordinals.start}, 0 without it. */
  static int startOrdinal(MapValue set) {
    return (int) Nested.integer(set, "spec", "ordinals", "start");
  }

  static int replicas(MapValue set) {
    return Nested.has(set, "spec", "replicas") ? (int) Nested.integer(set, "spec", "replicas") : 1;
  }

  /** kube's {@code getEndOrdinal}: the last ordinal in range (start + replicas - 1). */
  static int endOrdinal(MapValue set) {
    return startOrdinal(set) + replicas(set) - 1;
  }

  /** kube's {@code podInOrdinalRange}. */
  static boolean inOrdinalRange(MapValue pod, MapValue set) {
    int ordinal = ordinal(pod);
    return ordinal >= startOrdinal(set) && ordinal <= endOrdinal(set);
  }

  /** kube's {@code getPodName}. */
  static String podName(MapValue set, int ordinal) {
    return Meta.metaString(set, "name") + "-" + ordinal;
  }

  /** kube's {@code getPersistentVolumeClaimName}: {@code <claim>-<set>-<ordinal>}. */
  static String claimName(MapValue set, String template, int ordinal) {
    return template + "-" + Meta.metaString(set, "name") + "-" + ordinal;
  }

  /** kube's {@code isMemberOf}: the Pod's parent name is the set's. */
  static boolean isMemberOf(MapValue set, MapValue pod) {
    return parentAndOrdinal(Meta.metaString(pod, "name")).parent()
        .equals(Meta.metaString(set, "name"));
  }

  /** kube's {@code identityMatches}: name, namespace and the pod-name and pod-index labels. */
  static boolean identityMatches(MapValue set, MapValue pod) {
    ParentAndOrdinal po = parentAndOrdinal(Meta.metaString(pod, "name"));
    Map<String, String> labels = Meta.labels(pod);
    return po.ordinal() >= 0 && po.parent().equals(Meta.metaString(set, "name"))
        && Meta.metaString(pod, "name").equals(podName(set, po.ordinal()))
        && Meta.metaString(pod, "namespace").equals(Meta.metaString(set, "namespace"))
        && Meta.metaString(pod, "name").equals(labels.get(POD_NAME_LABEL))
        && Integer.toString(po.ordinal()).equals(labels.get(POD_INDEX_LABEL));
  }

  /** kube's {@code storageMatches}: every claim template has its PVC volume in the Pod. */
  static boolean storageMatches(MapValue set, MapValue pod) {
    int ordinal = ordinal(pod);
    if (ordinal < 0) {
      return false;
    }
    Map<String, Value> volumes = new LinkedHashMap<>();
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      volumes.put(Nested.str(v, "name"), v);
    }
    for (Value t : Nested.list(set, "spec", "volumeClaimTemplates")) {
      String name = Nested.str(t, "metadata", "name");
      Value volume = volumes.get(name);
      if (volume == null || !Nested.str(volume, "persistentVolumeClaim", "claimName")
          .equals(claimName(set, name, ordinal))) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's {@code getPersistentVolumeClaims}: per claim template (in order) the claim of the
   * Pod's ordinal: the template renamed, in the set's namespace, its labels plus the selector's
   * matchLabels.
   */
  static Map<String, MapValue> claims(MapValue set, int ordinal) {
    Map<String, MapValue> out = new LinkedHashMap<>();
    MapValue matchLabels = Nested.map(set, "spec", "selector", "matchLabels");
    for (Value t : Nested.list(set, "spec", "volumeClaimTemplates")) {
      MapValue template = (MapValue) t;
      String name = Nested.str(template, "metadata", "name");
      MapValue claim = Meta.withMetaString(template, "name", claimName(set, name, ordinal));
      claim = Meta.withMetaString(claim, "namespace", Meta.metaString(set, "namespace"));
      MapValue labels = Nested.map(claim, "metadata", "labels");
      MapValue.Builder merged = labels.toBuilder();
      matchLabels.forEach(merged::put);
      claim = Meta.withMeta(claim, "labels", merged.build());
      claim = claim.with("apiVersion", Value.of("v1")).with("kind",
          Value.of("PersistentVolumeClaim"));
      // the template's status is not the claim's
      out.put(name, claim.without("status"));
    }
    return out;
  }

  /**
   * kube's {@code updateStorage}: the claim volumes first (template order), then the Pod's other
   * volumes; a Pod volume named like a claim template is replaced.
   */
  static MapValue updateStorage(MapValue set, MapValue pod) {
    Map<String, MapValue> claims = claims(set, ordinal(pod));
    List<Value> volumes = new ArrayList<>();
    claims.forEach((name, claim) -> volumes.add(MapValue.ofEntries("name", Value.of(name),
        "persistentVolumeClaim", MapValue.ofEntries("claimName",
            Value.of(Meta.metaString(claim, "name"))))));
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      if (!claims.containsKey(Nested.str(v, "name"))) {
        volumes.add(v);
      }
    }
    if (volumes.isEmpty()) {
      return pod;
    }
    return Nested.set(pod, ListValue.of(volumes), "spec", "volumes");
  }

  /** kube's {@code updateIdentity}: name, namespace, pod-name and pod-index labels. */
  static MapValue updateIdentity(MapValue set, MapValue pod) {
    int ordinal = ordinal(pod);
    String name = podName(set, ordinal);
    MapValue out = Meta.withMetaString(pod, "name", name);
    out = Meta.withMetaString(out, "namespace", Meta.metaString(set, "namespace"));
    MapValue labels = Nested.map(out, "metadata", "labels").with(POD_NAME_LABEL, Value.of(name))
        .with(POD_INDEX_LABEL, Value.of(Integer.toString(ordinal)));
    return Meta.withMeta(out, "labels", labels);
  }

  /** kube's {@code initIdentity}: the identity plus hostname and subdomain, set at creation. */
  static MapValue initIdentity(MapValue set, MapValue pod) {
    MapValue out = updateIdentity(set, pod);
    out = Nested.set(out, Value.of(Meta.metaString(out, "name")), "spec", "hostname");
    String service = Nested.str(set, "spec", "serviceName");
    if (!service.isEmpty()) {
      out = Nested.set(out, Value.of(service), "spec", "subdomain");
    }
    return out;
  }

  /**
   * kube's {@code newStatefulSetPod}: {@code GetPodFromTemplate} (labels, annotations,
   * finalizers, generateName, the controllerRef) with the member's identity and storage.
   */
  static MapValue newPod(MapValue set, int ordinal, MapValue controllerRef) {
    MapValue template = Nested.map(set, "spec", "template");
    MapValue tmeta = Nested.map(template, "metadata");
    MapValue.Builder meta = MapValue.builder();
    for (String k : List.of("labels", "annotations", "finalizers")) {
      Value v = tmeta.getOrNull(k);
      if (v != null) {
        meta.put(k, v);
      }
    }
    meta.put("name", Value.of(podName(set, ordinal)));
    meta.put("generateName", Value.of(Meta.metaString(set, "name") + "-"));
    meta.put("ownerReferences", ListValue.of(List.of(controllerRef)));
    MapValue pod = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Pod"),
        "metadata", meta.build(), "spec", Nested.map(template, "spec"));
    return updateStorage(set, initIdentity(set, pod));
  }

  /** kube's {@code setPodRevision}. */
  static MapValue withRevision(MapValue pod, String revision) {
    return Meta.withMeta(pod, "labels",
        Nested.map(pod, "metadata", "labels").with(REVISION_LABEL, Value.of(revision)));
  }

  /** kube's {@code getPodRevision}. */
  static String podRevision(MapValue pod) {
    return Meta.labels(pod).getOrDefault(REVISION_LABEL, "");
  }

  /**
   * kube's {@code newVersionedStatefulSetPod}: a RollingUpdate set's ordinals below the
   * partition (or, without rollingUpdate, below the current replicas) come from the current
   * revision, the others from the update revision.
   */
  static MapValue newVersionedPod(MapValue currentSet, MapValue updateSet, String currentRevision,
      String updateRevision, int ordinal, MapValue controllerRef) {
    boolean rolling = Nested.str(currentSet, "spec", "updateStrategy", "type")
        .equals("RollingUpdate");
    boolean hasRolling = Nested.has(currentSet, "spec", "updateStrategy", "rollingUpdate");
    int start = startOrdinal(currentSet);
    boolean current = (rolling && !hasRolling
        && ordinal < start + Nested.integer(currentSet, "status", "currentReplicas"))
        || (hasRolling && ordinal < start + Nested.integer(currentSet, "spec", "updateStrategy",
            "rollingUpdate", "partition"));
    if (current) {
      return withRevision(newPod(currentSet, ordinal, controllerRef), currentRevision);
    }
    return withRevision(newPod(updateSet, ordinal, controllerRef), updateRevision);
  }

  /**
   * kube's {@code getPatch}: the set's template with {@code "$patch": "replace"} under
   * {@code spec.template}; its canonical JSON is the revision's raw data.
   */
  static MapValue patch(MapValue set) {
    MapValue template = Nested.map(set, "spec", "template").with("$patch", Value.of("replace"));
    return MapValue.ofEntries("spec", MapValue.ofEntries("template", template));
  }

  /**
   * kube's {@code ApplyRevision}: the set with the revision's template (the patch replaces the
   * whole template).
   */
  static MapValue applyRevision(MapValue set, MapValue revision) {
    MapValue template = Nested.map(revision, "data", "spec", "template").without("$patch");
    return Nested.set(set, template, "spec", "template");
  }

  /**
   * Whether a revision was made from the set's current template: kube compares the revision's
   * raw data with the set's patch; data written by a release that still serialized
   * {@code creationTimestamp: null} in the template counts as equal (kube 1.34's compatibility
   * rule).
   */
  static boolean matches(MapValue set, MapValue revision) {
    Value data = revision.getOrNull("data");
    if (data == null) {
      return false;
    }
    return stripNullCreation(data).equals(patch(set));
  }

  private static Value stripNullCreation(Value data) {
    Value created = Nested.getOrNull(data, "spec", "template", "metadata", "creationTimestamp");
    if (created != null && created.equals(Value.nullValue()) && data instanceof MapValue m) {
      return Nested.remove(m, "spec", "template", "metadata", "creationTimestamp");
    }
    return data;
  }

  /** kube's {@code allowsBurst}: Parallel pod management. */
  static boolean allowsBurst(MapValue set) {
    return Nested.str(set, "spec", "podManagementPolicy").equals("Parallel");
  }

  /** kube's {@code isCreated}: the Pod has a phase (the server set one). */
  static boolean isCreated(MapValue pod) {
    return !Nested.str(pod, "status", "phase").isEmpty();
  }

  static boolean isFailed(MapValue pod) {
    return Nested.str(pod, "status", "phase").equals("Failed");
  }

  static boolean isSucceeded(MapValue pod) {
    return Nested.str(pod, "status", "phase").equals("Succeeded");
  }

  static boolean isPending(MapValue pod) {
    return Nested.str(pod, "status", "phase").equals("Pending");
  }

  static boolean isTerminating(MapValue pod) {
    return Nested.has(pod, "metadata", "deletionTimestamp");
  }

  /** kube's {@code isRunningAndReady}. */
  static boolean isRunningAndReady(MapValue pod) {
    return Nested.str(pod, "status", "phase").equals("Running") && Pods.ready(pod);
  }

  /** kube's {@code isRunningAndAvailable}. */
  static boolean isRunningAndAvailable(MapValue pod, long minReadySeconds, Instant now) {
    return Nested.str(pod, "status", "phase").equals("Running")
        && Pods.available(pod, minReadySeconds, now);
  }

  /** kube's {@code isHealthy}: running and ready and not terminating. */
  static boolean isHealthy(MapValue pod) {
    return isRunningAndReady(pod) && !isTerminating(pod);
  }

  /**
   * kube's {@code getStatefulSetMaxUnavailable}: the rollingUpdate's maxUnavailable scaled to
   * the replicas rounding up, at least 1.
   */
  static int maxUnavailable(MapValue set) {
    Value v = Nested.getOrNull(set, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable");
    long n = IntOrPercent.scaled(v, replicas(set), IntOrPercent.Rounding.UP, 1);
    return (int) Math.max(1, n);
  }

  /** The retention policy's two answers, kube's defaults (Retain) filled in. */
  record RetentionPolicy(boolean deleteWhenDeleted, boolean deleteWhenScaled) {}

  static RetentionPolicy retentionPolicy(MapValue set) {
    MapValue p = Nested.map(set, "spec", "persistentVolumeClaimRetentionPolicy");
    return new RetentionPolicy(Nested.str(p, "whenDeleted").equals("Delete"),
        Nested.str(p, "whenScaled").equals("Delete"));
  }

  /**
   * kube's {@code updateClaimOwnerRefs}: the claim's owner references as the retention policy
   * wants them: the set owns the claim when it is deleted with the set; the Pod owns it when it
   * is deleted on scale down and the Pod is out of range. Empty when they already are so.
   */
  static Optional<List<Value>> claimOwnerRefs(MapValue set, MapValue claim, MapValue pod) {
    List<Value> refs = new ArrayList<>(Nested.list(claim, "metadata", "ownerReferences"));
    List<Value> before = List.copyOf(refs);
    RetentionPolicy policy = retentionPolicy(set);
    boolean scaledDown = !inOrdinalRange(pod, set);
    Predicate<Value> ofSet = r -> Nested.str(r, "kind").equals("StatefulSet")
        && Nested.str(r, "uid").equals(Meta.metaString(set, "uid"));
    Predicate<Value> ofPod = r -> Nested.str(r, "kind").equals("Pod")
        && Nested.str(r, "uid").equals(Meta.metaString(pod, "uid"));
    boolean setOwns = policy.deleteWhenDeleted()
        && (!policy.deleteWhenScaled() || !scaledDown);
    boolean podOwns = policy.deleteWhenScaled() && scaledDown;
    if (setOwns) {
      addRef(refs, ofSet, "apps/v1", "StatefulSet", set);
    } else {
      refs.removeIf(ofSet);
    }
    if (podOwns) {
      addRef(refs, ofPod, "v1", "Pod", pod);
    } else {
      refs.removeIf(ofPod);
    }
    return refs.equals(before) ? Optional.empty() : Optional.of(refs);
  }

  private static void addRef(List<Value> refs, Predicate<Value> exists, String apiVersion,
      String kind, MapValue owner) {
    if (refs.stream().noneMatch(exists)) {
      refs.add(MapValue.ofEntries("apiVersion", Value.of(apiVersion), "kind", Value.of(kind),
          "name", Value.of(Meta.metaString(owner, "name")),
          "uid", Value.of(Meta.metaString(owner, "uid"))));
    }
  }

  /** The revision number of a revision value; for readability at call sites. */
  static long revisionNumber(MapValue revision) {
    return ControllerHistory.revision(revision);
  }

  /** Objects.equals on strings, for readability in the status comparison. */
  static boolean same(String a, String b) {
    return Objects.equals(a, b);
  }
}
