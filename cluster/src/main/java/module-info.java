/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Simulated Nodes and the default scheduler in the server's JVM, as kwok does with fake nodes:
 * {@link io.apiserver4j.cluster.SimulatedCluster} registers Nodes with kube's status and renews
 * their Leases, binds pending Pods through {@code pods/binding} by kube-scheduler's filters, and
 * runs each bound Pod's lifecycle on the server clock.
 */
module io.apiserver4j.cluster {
  requires transitive io.apiserver4j.controllers;
  requires io.apiserver4j.apimachinery;
  requires org.slf4j;

  exports io.apiserver4j.cluster;
}
