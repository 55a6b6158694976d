/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's statefulset controller (pkg/controller/statefulset): member Pods with stable names,
 * identities and PersistentVolumeClaims, ordered or parallel creation and deletion, rolling
 * updates through ControllerRevisions, the PVC retention policy, and the set's status.
 */
package io.apiserver4j.controllers.statefulset;
