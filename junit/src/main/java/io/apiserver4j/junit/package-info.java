/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A JUnit 5 test kit: {@link io.apiserver4j.junit.ApiServerTest} starts an in-process API server
 * with an HTTP port and a kubeconfig per test class or per test, injects it (and the clients of
 * the {@link io.apiserver4j.junit.ClientFactory}s on the class path), loads
 * {@link io.apiserver4j.junit.WithManifests}, keeps time in a {@link io.apiserver4j.junit.TestClock},
 * and can simulate kube-controller-manager's garbage collector.
 * {@link io.apiserver4j.junit.ApiServerAssertions} checks field ownership, apply conflicts and
 * watch events. The module depends on no Kubernetes client: {@code apiserver4j-junit-fabric8} and
 * {@code apiserver4j-junit-client-java} add them.
 */
package io.apiserver4j.junit;
