/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's deployment controller (pkg/controller/deployment): rollouts of Deployments through
 * ReplicaSets named by kube's pod-template-hash.
 */
package io.apiserver4j.controllers.deployment;
