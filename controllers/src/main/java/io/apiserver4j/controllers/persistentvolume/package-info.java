/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's persistent volume binder (pkg/controller/volume/persistentvolume): claims matched to
 * volumes by kube's index, bound both ways, phases and reclaim policies; beside it a simulated
 * external provisioner that creates volumes for claims of a StorageClass as a CSI
 * external-provisioner would.
 */
package io.apiserver4j.controllers.persistentvolume;
