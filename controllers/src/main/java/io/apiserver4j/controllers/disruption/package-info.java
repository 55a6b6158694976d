/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/** kube's disruption controller (pkg/controller/disruption): PodDisruptionBudget status. */
package io.apiserver4j.controllers.disruption;
