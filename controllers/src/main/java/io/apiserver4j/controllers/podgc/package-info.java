/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's pod garbage collector (pkg/controller/podgc): terminated Pods over
 * {@code --terminated-pod-gc-threshold}, Pods bound to Nodes that are gone, terminating Pods
 * never scheduled and terminating Pods on out-of-service Nodes, force-deleted every 20 seconds
 * of the server clock after being marked Failed.
 */
package io.apiserver4j.controllers.podgc;
