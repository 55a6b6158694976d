/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's daemon controller (pkg/controller/daemon): one Pod per eligible Node, rolling updates
 * through ControllerRevisions with maxUnavailable or maxSurge, OnDelete, and the DaemonSet's
 * status.
 */
package io.apiserver4j.controllers.daemon;
