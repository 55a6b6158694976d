/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The extension behind {@link io.apiserver4j.junit.ApiServerTest}: servers held in JUnit's
 * extension-context stores, manifest loading, storage reset, and kube-controller-manager's
 * controllers (apiserver4j-controllers) when a test asks for them. Not for use outside this
 * module.
 */
package io.apiserver4j.junit.internal;
