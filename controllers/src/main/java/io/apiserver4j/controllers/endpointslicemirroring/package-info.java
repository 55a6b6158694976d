/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's endpointslicemirroring controller (pkg/controller/endpointslicemirroring): the
 * Endpoints of Services without a selector, mirrored to EndpointSlices.
 */
package io.apiserver4j.controllers.endpointslicemirroring;
