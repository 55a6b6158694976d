/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.controllers.metrics.CustomMetrics;
import io.apiserver4j.controllers.metrics.PodMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the controllers of one manager are given besides the server and the clock: the worker
 * counts of kube's {@code --concurrent-<name>-syncs} flags by name, the other integer flags of
 * kube-controller-manager that were set (by flag name without dashes, see
 * {@link ControllerContext#flag}), whether the volume controllers' simulated storage (external
 * provisioner, resizer and attacher) runs, the {@code --cluster-signing-*} files, the metrics
 * the horizontal pod autoscaler reads, and the key the serviceaccount-token controller signs
 * with (none: it does not run, as kube without {@code --service-account-private-key-file}).
 * Immutable.
 */
public record ControllerSettings(Map<String, Integer> concurrentSyncs, Map<String, Integer> flags,
    boolean simulatedStorage, SigningFiles clusterSigning, PodMetrics podMetrics,
    Optional<CustomMetrics> customMetrics, Optional<ServiceAccountTokenSigning> tokenSigning) {
  /** kube's default signing duration, one year, for a manager given no signing flags. */
  private static final Duration SIGNING_DURATION = Duration.ofHours(8760);

  public ControllerSettings {
    concurrentSyncs = Map.copyOf(concurrentSyncs);
    flags = Map.copyOf(flags);
    requireNonNull(clusterSigning, "clusterSigning");
    requireNonNull(podMetrics, "podMetrics");
    requireNonNull(customMetrics, "customMetrics");
    requireNonNull(tokenSigning, "tokenSigning");
  }

  /** No flags set, simulated storage on, an in-memory CA, no metrics and no token key. */
  public static ControllerSettings defaults() {
    return new ControllerSettings(Map.of(), Map.of(), true,
        new SigningFiles(Map.of(), SIGNING_DURATION), PodMetrics.create(), Optional.empty(),
        Optional.empty());
  }

  /** These settings with the worker counts {@code syncs}. */
  public ControllerSettings withConcurrentSyncs(Map<String, Integer> syncs) {
    return new ControllerSettings(syncs, flags, simulatedStorage, clusterSigning, podMetrics,
        customMetrics, tokenSigning);
  }
}
