/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * fabric8 for {@link io.apiserver4j.junit.ApiServerTest}: an injected {@code KubernetesClient}
 * ({@link io.apiserver4j.junit.fabric8.KubernetesClientFactory}, registered as a service) and
 * model objects in the in-process API and its assertions
 * ({@link io.apiserver4j.junit.fabric8.Fabric8Objects}).
 */
package io.apiserver4j.junit.fabric8;
