/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's ephemeral volume controller (pkg/controller/volume/ephemeral): a PersistentVolumeClaim
 * for every generic ephemeral volume of a Pod.
 */
package io.apiserver4j.controllers.volume.ephemeral;
