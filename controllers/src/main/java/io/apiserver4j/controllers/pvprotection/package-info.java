/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's pv-protection controller (pkg/controller/volume/pvprotection): the
 * {@code kubernetes.io/pv-protection} finalizer kept on volumes while they are bound.
 */
package io.apiserver4j.controllers.pvprotection;
