/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The official Kubernetes Java client for {@link io.apiserver4j.junit.ApiServerTest}: an injected
 * {@code ApiClient} ({@link io.apiserver4j.junit.clientjava.ApiClientFactory}, registered as a
 * service) and model objects in the in-process API
 * ({@link io.apiserver4j.junit.clientjava.ClientJavaObjects}).
 */
package io.apiserver4j.junit.clientjava;
