/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The default scheduler: kube-scheduler's filters, least-allocated score, FitError messages and
 * pods/binding, not exported.
 */
package io.apiserver4j.cluster.scheduler;
