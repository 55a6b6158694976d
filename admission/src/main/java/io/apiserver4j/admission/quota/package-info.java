/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's quota evaluation ({@code k8s.io/apiserver/pkg/quota/v1}, its {@code generic} package and
 * {@code pkg/quota/v1/evaluator/core}): resource lists and their arithmetic, the evaluators that
 * measure what an object consumes (object counts, Pod compute, Service ports and load balancers,
 * PersistentVolumeClaim storage), quota scopes, and the usage recalculation of a quota. Shared by
 * the {@code ResourceQuota} admission plugin and the {@code resourcequota} controller, so both
 * count alike.
 */
package io.apiserver4j.admission.quota;
