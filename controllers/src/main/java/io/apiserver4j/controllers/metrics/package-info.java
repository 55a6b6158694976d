/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The metrics a test sets in place of metrics-server and a metrics adapter, which the horizontal
 * pod autoscaler reads: resource usage in {@link io.apiserver4j.controllers.metrics.PodMetrics}
 * (also served as {@code metrics.k8s.io} by {@link io.apiserver4j.controllers.metrics.MetricsApi}
 * for {@code kubectl top}) and custom and external metrics in
 * {@link io.apiserver4j.controllers.metrics.CustomMetrics}.
 */
package io.apiserver4j.controllers.metrics;
