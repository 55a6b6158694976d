/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The resource metrics a test sets in place of metrics-server, which the horizontal pod
 * autoscaler reads: {@link io.apiserver4j.controllers.metrics.PodMetrics}.
 */
package io.apiserver4j.controllers.metrics;
