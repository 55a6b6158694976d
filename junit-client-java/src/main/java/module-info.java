/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The official Kubernetes Java client for {@link io.apiserver4j.junit.ApiServerTest}: a
 * {@link io.apiserver4j.junit.ClientFactory} that injects its {@code ApiClient}, and conversions
 * of its model objects.
 *
 * <p>The client stays on the class path, and this module reads the unnamed module: its jars
 * declare automatic module names, but what they need cannot all be modules (jsr305 and
 * javax.annotation-api split the package {@code javax.annotation}; okio and Kotlin's common
 * library have no module names), and a published module should not depend on automatic
 * modules. Its public methods take the client's types. On the module path, run with
 * {@code --add-reads io.apiserver4j.junit.clientjava=ALL-UNNAMED} and the client with its
 * dependencies on the class path.
 */
module io.apiserver4j.junit.clientjava {
  requires transitive io.apiserver4j.junit;

  exports io.apiserver4j.junit.clientjava;

  provides io.apiserver4j.junit.ClientFactory
      with io.apiserver4j.junit.clientjava.ApiClientFactory;
}
