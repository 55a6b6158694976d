/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's ttl controller (pkg/controller/ttl): the {@code node.alpha.kubernetes.io/ttl}
 * annotation on every Node, the seconds a kubelet may cache Secrets and ConfigMaps, by the
 * number of Nodes in the cluster.
 */
package io.apiserver4j.controllers.ttl;
