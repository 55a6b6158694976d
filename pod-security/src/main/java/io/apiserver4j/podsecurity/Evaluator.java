/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Optional;

/**
 * Evaluates pods against a level and version, as kube's {@code policy.Evaluator}.
 * Implementations are thread-safe.
 */
public interface Evaluator {
  /**
   * The results of the checks of {@code levelVersion} on a pod, as kube's {@code EvaluatePod}:
   * none for privileged.
   *
   * @param levelVersion the level and version
   * @param podMetadata the pod's (or template's) metadata
   * @param podSpec the pod's (or template's) spec
   * @return the results, one per check in effect
   */
  List<CheckResult> evaluatePod(LevelVersion levelVersion, MapValue podMetadata,
      MapValue podSpec);

  /**
   * The aggregate of {@link #evaluatePod}.
   *
   * @param levelVersion the level and version
   * @param podMetadata the pod's metadata
   * @param podSpec the pod's spec
   * @return the aggregate result
   */
  default AggregateCheckResult aggregate(LevelVersion levelVersion, MapValue podMetadata,
      MapValue podSpec) {
    return AggregateCheckResult.of(evaluatePod(levelVersion, podMetadata, podSpec));
  }

  /**
   * An evaluator of kube's {@link Checks#defaultChecks() default checks}, as kube's
   * {@code policy.NewEvaluator}: for each policy version from v1.0 to the newest one a check
   * names, the baseline checks in effect, and the restricted ones (restricted checks plus the
   * baseline checks they do not override), baseline ids sorted first, then restricted ids
   * sorted. Versions newer than the newest known (and {@code latest}) evaluate as the newest.
   *
   * @return the evaluator (one per JVM: it is immutable, and every server's PodSecurity plugin
   *     would otherwise inflate the same tables again)
   */
  static Evaluator create() {
    return CheckRegistry.defaults();
  }

  /**
   * An evaluator of {@code checks}, as {@link #create()}.
   *
   * @param checks the checks
   * @return the evaluator
   * @throws IllegalArgumentException naming the check when the checks are invalid (kube's
   *     {@code validateChecks}: duplicate ids, a level other than baseline or restricted, no
   *     versions, versions not strictly increasing or {@code latest}, overrides on a baseline
   *     check or of a restricted check)
   */
  static Evaluator create(List<Check> checks) {
    return new CheckRegistry(checks, Optional.empty());
  }

  /**
   * An evaluator of {@code checks} in a server emulating {@code emulationVersion}, as kube's
   * {@code NewEvaluator} with an emulation version: when it is older than the newest check
   * version, policy versions newer than it evaluate as it.
   *
   * @param checks the checks
   * @param emulationVersion the emulated Kubernetes minor version
   * @return the evaluator
   * @throws IllegalArgumentException when the checks are invalid
   */
  static Evaluator create(List<Check> checks, PolicyVersion emulationVersion) {
    return new CheckRegistry(checks, Optional.of(requireNonNull(emulationVersion,
        "emulationVersion")));
  }
}
