/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import io.apiserver4j.cluster.internal.Annotations;

/**
 * The Pod annotations that steer one Pod's simulated lifecycle, overriding the cluster-wide
 * settings of {@link SimulatedCluster.Builder}. Durations are Go durations ({@code 500ms},
 * {@code 30s}, {@code 1m30s}) on the server clock.
 *
 * <ul>
 *   <li>{@value #START_DURATION}: from binding to Running (default
 *       {@link SimulatedCluster.Builder#startDuration}).
 *   <li>{@value #RUN_DURATION}: for Pods with {@code restartPolicy} {@code Never} or
 *       {@code OnFailure} (Jobs' Pods), how long the containers run before they exit (default
 *       {@link SimulatedCluster.Builder#runDuration}, itself 0).
 *   <li>{@value #EXIT_CODE}: the exit code those containers end with; 0 makes the Pod
 *       {@code Succeeded}, anything else {@code Failed} with reason {@code Error} (default
 *       {@link SimulatedCluster.Builder#exitCode}, itself 0).
 *   <li>{@value #LOG}: what {@code pods/log} returns for every container of the Pod (default
 *       {@link SimulatedCluster.Builder#log}, itself empty).
 * </ul>
 *
 * <p>A value that does not parse is ignored (the cluster-wide setting applies) and logged once.
 */
public final class PodSimulation {
  /** Time from binding to Running. */
  public static final String START_DURATION = Annotations.START_DURATION;
  /** How long a run-to-completion Pod's containers run. */
  public static final String RUN_DURATION = Annotations.RUN_DURATION;
  /** The exit code of a run-to-completion Pod's containers. */
  public static final String EXIT_CODE = Annotations.EXIT_CODE;
  /** The log text of the Pod's containers. */
  public static final String LOG = Annotations.LOG;

  private PodSimulation() {}
}
