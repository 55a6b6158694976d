/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's endpoints controller (pkg/controller/endpoint): Endpoints objects of Services with a
 * selector.
 */
package io.apiserver4j.controllers.endpoint;
