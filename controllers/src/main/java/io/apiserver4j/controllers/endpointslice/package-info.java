/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's endpointslice controller (pkg/controller/endpointslice and the staging
 * k8s.io/endpointslice reconciler): EndpointSlices of Services with a selector.
 */
package io.apiserver4j.controllers.endpointslice;
