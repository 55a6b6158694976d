/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's {@code node-lifecycle-controller} (pkg/controller/nodelifecycle): Node health from
 * status heartbeats and {@code kube-node-lease} Leases on the server clock, the NoSchedule and
 * NoExecute taints that follow Node conditions, and Pods marked not ready on unready Nodes.
 */
package io.apiserver4j.controllers.nodelifecycle;
