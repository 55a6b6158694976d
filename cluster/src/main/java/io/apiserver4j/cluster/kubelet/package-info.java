/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The simulated kubelets: Node registration and status, Leases, Pod lifecycle stages on the server
 * clock, not exported.
 */
package io.apiserver4j.cluster.kubelet;
