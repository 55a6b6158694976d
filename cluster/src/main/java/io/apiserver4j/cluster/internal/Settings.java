/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

import java.time.Duration;
import java.util.List;

/**
 * What a simulated cluster was configured with: its Nodes and the cluster-wide Pod durations,
 * exit code and log. Immutable.
 *
 * @param nodes the Nodes, in registration order
 * @param startDuration binding to Running
 * @param runDuration Running to exit for run-to-completion Pods
 * @param exitCode their containers' exit code
 * @param log every container's log
 */
public record Settings(List<NodeSpec> nodes, Duration startDuration, Duration runDuration,
    int exitCode, String log) {
  /** Copies the list. */
  public Settings {
    nodes = List.copyOf(nodes);
  }
}
