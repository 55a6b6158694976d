/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

/** The Pod annotations the kubelets read; documented on the public {@code PodSimulation}. */
public final class Annotations {
  /** Time from binding to Running. */
  public static final String START_DURATION = "apiserver4j.io/simulate-start-duration";
  /** How long a run-to-completion Pod's containers run. */
  public static final String RUN_DURATION = "apiserver4j.io/simulate-run-duration";
  /** The exit code of a run-to-completion Pod's containers. */
  public static final String EXIT_CODE = "apiserver4j.io/simulate-exit-code";
  /** The log text of the Pod's containers. */
  public static final String LOG = "apiserver4j.io/simulate-log";

  private Annotations() {}
}
