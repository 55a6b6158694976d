/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * What the scheduler and kubelets share, not exported: settings, the events.k8s.io recorder, the
 * node lifecycle controller's NoSchedule taint pass, value builders.
 */
package io.apiserver4j.cluster.internal;
