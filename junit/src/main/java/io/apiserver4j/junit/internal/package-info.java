/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The extension behind {@link io.apiserver4j.junit.ApiServerTest}: servers held in JUnit's
 * extension-context stores, manifest loading, storage reset, the simulated garbage collector.
 * Not for use outside this module.
 */
package io.apiserver4j.junit.internal;
