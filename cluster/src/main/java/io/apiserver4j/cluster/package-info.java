/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The simulated cluster's public API: {@link io.apiserver4j.cluster.SimulatedCluster} with its
 * Node configuration ({@link io.apiserver4j.cluster.NodeConfig}, {@link
 * io.apiserver4j.cluster.NodeTaint}) and the Pod annotations of {@link
 * io.apiserver4j.cluster.PodSimulation}.
 */
package io.apiserver4j.cluster;
