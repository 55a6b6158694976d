/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's resourcequota controller (pkg/controller/resourcequota): each ResourceQuota's
 * {@code status.hard} follows its {@code spec.hard} and {@code status.used} is recounted from the
 * namespace's objects with the evaluators the ResourceQuota admission plugin charges with,
 * when a quota is created or its limits change, when counted objects go or Pods finish, and
 * in a full resync every five minutes of the server clock.
 */
package io.apiserver4j.controllers.resourcequota;
