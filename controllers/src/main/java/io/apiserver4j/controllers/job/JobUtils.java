/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.admission.matching.LabelSelectors;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's job helpers on Job and Pod values (pkg/controller/job: utils.go, indexed_job_utils.go,
 * success_policy.go and the predicates of job_controller.go): pure functions of their arguments,
 * which the controller's sync and the tests share.
 */
final class JobUtils {
  private JobUtils() {}

  static Optional<LabelSelector> selector(MapValue job) {
    Value s = Nested.getOrNull(job, "spec", "selector");
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabelSelectors.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static boolean hasFinalizer(MapValue pod) {
    return Meta.finalizers(pod).contains(JobController.TRACKING_FINALIZER);
  }

  static boolean managedByOther(MapValue job) {
    String by = Nested.str(job, "spec", "managedBy");
    return !by.isEmpty() && !by.equals(JobController.JOB_CONTROLLER_NAME);
  }

  /** kube's {@code IsJobFinished}: a True Complete or Failed condition. */
  static boolean finished(MapValue job) {
    for (Value c : Nested.list(job, "status", "conditions")) {
      String type = Nested.str(c, "type");
      if ((type.equals("Complete") || type.equals("Failed"))
          && Nested.str(c, "status").equals("True")) {
        return true;
      }
    }
    return false;
  }

  static String completionMode(MapValue job) {
    String m = Nested.str(job, "spec", "completionMode");
    return m.isEmpty() ? "NonIndexed" : m;
  }

  static boolean indexed(MapValue job) {
    return completionMode(job).equals("Indexed");
  }

  /** kube's {@code hasBackoffLimitPerIndex} (the feature gate is GA, always on). */
  static boolean hasBackoffLimitPerIndex(MapValue job) {
    return Nested.has(job, "spec", "backoffLimitPerIndex");
  }

  static boolean suspended(MapValue job) {
    return Nested.bool(job, "spec", "suspend");
  }

  /** kube's {@code onlyReplaceFailedPods}. */
  static boolean onlyReplaceFailed(MapValue job) {
    return Nested.str(job, "spec", "podReplacementPolicy").equals("Failed")
        || Nested.has(job, "spec", "podFailurePolicy");
  }

  /** kube's {@code isPodFailed}: Failed, or being deleted unless only failed Pods count. */
  static boolean podFailed(MapValue pod, MapValue job) {
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Failed")) {
      return true;
    }
    if (onlyReplaceFailed(job)) {
      return false;
    }
    return Nested.has(pod, "metadata", "deletionTimestamp") && !phase.equals("Succeeded");
  }

  /** kube's {@code IsPodTerminating}: being deleted and not yet terminal. */
  static boolean terminating(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return Nested.has(pod, "metadata", "deletionTimestamp") && !phase.equals("Failed")
        && !phase.equals("Succeeded");
  }

  /** kube's {@code getCompletionIndex}: the annotation's index, -1 when absent or bad. */
  static int completionIndex(MapValue pod) {
    String v = Meta.annotations(pod).get(JobController.COMPLETION_INDEX);
    if (v == null) {
      return -1;
    }
    try {
      int i = Integer.parseInt(v);
      return i < 0 ? -1 : i;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static Optional<String> failJobMessage(MapValue job, List<MapValue> pods) {
    if (!Nested.has(job, "spec", "podFailurePolicy")) {
      return Optional.empty();
    }
    for (MapValue p : pods) {
      if (podFailed(p, job)) {
        Optional<String> msg = PodFailurePolicy.match(job, p).failJobMessage();
        if (msg.isPresent()) {
          return msg;
        }
      }
    }
    return Optional.empty();
  }

  /** kube's {@code pastBackoffLimitOnFailure}: restarts of running Pods, OnFailure only. */
  static boolean pastBackoffLimitOnFailure(MapValue job, List<MapValue> pods) {
    if (!Nested.str(job, "spec", "template", "spec", "restartPolicy").equals("OnFailure")) {
      return false;
    }
    long restarts = 0;
    for (MapValue p : pods) {
      String phase = Nested.str(p, "status", "phase");
      if (phase.equals("Running") || phase.equals("Pending")) {
        for (String list : List.of("initContainerStatuses", "containerStatuses")) {
          for (Value s : Nested.list(p, "status", list)) {
            restarts += Nested.integer(s, "restartCount");
          }
        }
      }
    }
    long limit = Nested.integer(job, "spec", "backoffLimit");
    return limit == 0 ? restarts > 0 : restarts >= limit;
  }

  static boolean pastActiveDeadline(MapValue job, JobStatus status, Instant now) {
    if (!Nested.has(job, "spec", "activeDeadlineSeconds") || status.startTime.isEmpty()
        || suspended(job)) {
      return false;
    }
    Duration ran = Duration.between(Instant.parse(status.startTime.get()), now);
    return ran.compareTo(Duration.ofSeconds(Nested.integer(job, "spec",
        "activeDeadlineSeconds"))) >= 0;
  }

  /** kube's {@code matchSuccessPolicy}: "Matched rules at index N" for the first rule met. */
  static Optional<String> matchSuccessPolicy(MapValue job, long completions,
      Intervals succeeded) {
    MapValue policy = Nested.mapOrNull(job, "spec", "successPolicy");
    if (policy == null || succeeded.isEmpty()) {
      return Optional.empty();
    }
    List<Value> rules = Nested.list(policy, "rules");
    for (int i = 0; i < rules.size(); i++) {
      Value rule = rules.get(i);
      long count = Nested.has(rule, "succeededCount") ? Nested.integer(rule, "succeededCount")
          : -1;
      if (Nested.has(rule, "succeededIndexes")) {
        Intervals required = Intervals.parse(Nested.str(rule, "succeededIndexes"), completions);
        if (required.isEmpty()) {
          continue;
        }
        if (required.matchedBy(succeeded, count)) {
          return Optional.of("Matched rules at index " + i);
        }
      } else if (count >= 0 && succeeded.total() >= count) {
        return Optional.of("Matched rules at index " + i);
      }
    }
    return Optional.empty();
  }

  /** kube's {@code activePodsForRemoval}: duplicate or bad indexes first, then by rank. */
  static List<MapValue> podsForRemoval(MapValue job, List<MapValue> active, int rmAtLeast) {
    List<MapValue> rm = new ArrayList<>();
    List<MapValue> left = new ArrayList<>();
    if (indexed(job)) {
      long completions = Nested.integer(job, "spec", "completions");
      Map<Integer, List<MapValue>> byIndex = new java.util.TreeMap<>();
      for (MapValue p : active) {
        int ix = completionIndex(p);
        if (ix < 0 || ix >= completions) {
          rm.add(p);
        } else {
          byIndex.computeIfAbsent(ix, k -> new ArrayList<>()).add(p);
        }
      }
      for (List<MapValue> same : byIndex.values()) {
        same.sort(ActivePodsOrder.INSTANCE);
        rm.addAll(same.subList(0, same.size() - 1));
        left.add(same.get(same.size() - 1));
      }
    } else {
      left.addAll(active);
    }
    if (rm.size() < rmAtLeast) {
      left.sort(ActivePodsOrder.INSTANCE);
      rm.addAll(left.subList(0, rmAtLeast - rm.size()));
    }
    return rm;
  }

  /**
   * kube's {@code podGenerateNameWithIndex}: {@code <job>-<index>-}, the job name cut so that
   * a generated name stays within 63 characters.
   */
  static String generateNameWithIndex(String jobName, int index) {
    String appendix = "-" + index + "-";
    // names.MaxGeneratedNameLength: 63 less the 5 random characters
    int max = 58;
    String prefix = jobName;
    if (prefix.length() + appendix.length() > max) {
      prefix = prefix.substring(0, max - appendix.length());
    }
    return prefix + appendix;
  }

  /** kube's {@code addCompletionIndexEnvVariables}: JOB_COMPLETION_INDEX from the label. */
  static MapValue withIndexEnv(MapValue spec) {
    MapValue out = spec;
    for (String list : List.of("initContainers", "containers")) {
      if (!out.containsKey(list)) {
        continue;
      }
      List<Value> containers = new ArrayList<>();
      for (Value c : Nested.list(out, list)) {
        if (!(c instanceof MapValue m)) {
          containers.add(c);
          continue;
        }
        List<Value> env = new ArrayList<>(Nested.list(m, "env"));
        if (env.stream().noneMatch(e -> Nested.str(e, "name").equals("JOB_COMPLETION_INDEX"))) {
          env.add(MapValue.ofEntries("name", Value.of("JOB_COMPLETION_INDEX"), "valueFrom",
              MapValue.ofEntries("fieldRef", MapValue.ofEntries("fieldPath",
                  Value.of("metadata.labels['" + JobController.COMPLETION_INDEX + "']")))));
        }
        containers.add(m.with("env", ListValue.of(env)));
      }
      out = out.with(list, ListValue.of(containers));
    }
    return out;
  }

  static boolean isSuccessCriteriaMet(MapValue condition) {
    return condition != null && Nested.str(condition, "type").equals("SuccessCriteriaMet")
        && Nested.str(condition, "status").equals("True");
  }
}
