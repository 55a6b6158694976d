/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's pkg/controller/serviceaccount: the tokens controller, which fills and deletes
 * {@code kubernetes.io/service-account-token} Secrets, and the legacy token generator it signs
 * with.
 */
package io.apiserver4j.controllers.serviceaccount;
