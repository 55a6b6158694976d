/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's {@code taint-eviction-controller} (pkg/controller/tainteviction): deletes the Pods of a
 * Node with {@code NoExecute} taints they do not tolerate, at once or once their
 * {@code tolerationSeconds} have passed on the server clock.
 */
package io.apiserver4j.controllers.tainteviction;
