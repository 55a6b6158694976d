/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's replicaset controller (pkg/controller/replicaset), which also runs
 * ReplicationControllers: Pods adopted, released, created and deleted to match each set's
 * replicas, and the set's status.
 */
package io.apiserver4j.controllers.replicaset;
