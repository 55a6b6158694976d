/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Optional;

/**
 * kube's {@code matchPodFailurePolicy} (pkg/controller/job/pod_failure_policy.go): the first
 * rule of a Job's {@code spec.podFailurePolicy} a failed Pod matches, by the exit code of a
 * terminated container (containers first, then init containers) or by a Pod condition.
 */
final class PodFailurePolicy {
  private PodFailurePolicy() {}

  /**
   * What a failed Pod's match means.
   *
   * @param failJobMessage the Job's failure message for a {@code FailJob} rule
   * @param countFailed whether the failure counts towards the backoff limit
   * @param action the matched rule's action, empty when no rule matched
   */
  record Match(Optional<String> failJobMessage, boolean countFailed, Optional<String> action) {
    static final Match NONE = new Match(Optional.empty(), true, Optional.empty());
  }

  /** The match of {@code pod} against the Job's policy (absent: no rule, counted). */
  static Match match(MapValue job, MapValue pod) {
    MapValue policy = Nested.mapOrNull(job, "spec", "podFailurePolicy");
    if (policy == null) {
      return Match.NONE;
    }
    List<Value> rules = Nested.list(policy, "rules");
    for (int index = 0; index < rules.size(); index++) {
      Value rule = rules.get(index);
      String action = Nested.str(rule, "action");
      String message;
      MapValue onExitCodes = Nested.mapOrNull(rule, "onExitCodes");
      if (onExitCodes != null) {
        Optional<MapValue> container = matchExitCodes(pod, onExitCodes);
        if (container.isEmpty()) {
          continue;
        }
        message = "Container " + Nested.str(container.get(), "name") + " for pod "
            + Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name")
            + " failed with exit code "
            + Nested.integer(container.get(), "state", "terminated", "exitCode") + " matching "
            + action + " rule at index " + index;
      } else if (Nested.has(rule, "onPodConditions")) {
        Optional<MapValue> condition = matchConditions(pod,
            Nested.list(rule, "onPodConditions"));
        if (condition.isEmpty()) {
          continue;
        }
        message = "Pod " + Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name")
            + " has condition " + Nested.str(condition.get(), "type") + " matching " + action
            + " rule at index " + index;
      } else {
        continue;
      }
      switch (action) {
        case "Ignore":
          return new Match(Optional.empty(), false, Optional.of(action));
        case "FailIndex":
        case "Count":
          return new Match(Optional.empty(), true, Optional.of(action));
        case "FailJob":
          return new Match(Optional.of(message), true, Optional.of(action));
        default:
          // an unknown action matches nothing, as kube's switch falls through
          break;
      }
    }
    return Match.NONE;
  }

  private static Optional<MapValue> matchExitCodes(MapValue pod, MapValue requirement) {
    Optional<MapValue> c = matchingContainer(Nested.list(pod, "status", "containerStatuses"),
        requirement);
    return c.isPresent() ? c
        : matchingContainer(Nested.list(pod, "status", "initContainerStatuses"), requirement);
  }

  private static Optional<MapValue> matchingContainer(List<Value> statuses, MapValue req) {
    for (Value s : statuses) {
      if (!Nested.has(s, "state", "terminated") || !(s instanceof MapValue status)) {
        continue;
      }
      if (req.containsKey("containerName")
          && !Nested.str(req, "containerName").equals(Nested.str(s, "name"))) {
        continue;
      }
      long exitCode = Nested.integer(s, "state", "terminated", "exitCode");
      if (exitCode == 0) {
        continue;
      }
      boolean in = Nested.list(req, "values").stream()
          .anyMatch(v -> Nested.integer(v) == exitCode);
      String op = Nested.str(req, "operator");
      if (op.equals("In") && in || op.equals("NotIn") && !in) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }

  private static Optional<MapValue> matchConditions(MapValue pod, List<Value> patterns) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      for (Value p : patterns) {
        String status = Nested.has(p, "status") ? Nested.str(p, "status") : "True";
        if (Nested.str(c, "type").equals(Nested.str(p, "type"))
            && Nested.str(c, "status").equals(status) && c instanceof MapValue m) {
          return Optional.of(m);
        }
      }
    }
    return Optional.empty();
  }
}
