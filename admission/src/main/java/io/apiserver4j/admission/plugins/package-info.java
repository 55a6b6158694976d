/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Built-in admission plugins as kube-apiserver runs them: NamespaceLifecycle,
 * NamespaceAutoProvision and a ResourceQuota counter.
 */
package io.apiserver4j.admission.plugins;
