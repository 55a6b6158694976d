/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's horizontal pod autoscaler (pkg/controller/podautoscaler): autoscaling/v2
 * HorizontalPodAutoscalers on any scale subresource, from the resource metrics a test sets in
 * {@link io.apiserver4j.controllers.metrics.PodMetrics}, every 15 seconds of the server clock.
 */
package io.apiserver4j.controllers.podautoscaler;
