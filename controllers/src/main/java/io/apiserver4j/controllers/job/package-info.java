/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's job controller (pkg/controller/job): Pods created from each Job's template up to its
 * parallelism and completions, NonIndexed or Indexed, counted through the
 * {@code batch.kubernetes.io/job-tracking} finalizer and {@code uncountedTerminatedPods}, with
 * the pod failure policy, the success policy, backoff on the server clock, the active deadline,
 * suspension and kube's terminal conditions.
 */
package io.apiserver4j.controllers.job;
