/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The fabric8 {@code KubernetesClient} for {@link io.apiserver4j.junit.ApiServerTest}: a
 * {@link io.apiserver4j.junit.ClientFactory} that injects it, and conversions of its model
 * objects.
 *
 * <p>The fabric8 client stays on the class path: its jars have no module names (not even an
 * {@code Automatic-Module-Name}), so no module can require them, and this module reads the
 * unnamed module. Its public methods take fabric8 types. On the module path, run with
 * {@code --add-reads io.apiserver4j.junit.fabric8=ALL-UNNAMED} and the fabric8 client, its
 * Vert.x HTTP client and their dependencies on the class path.
 */
module io.apiserver4j.junit.fabric8 {
  requires transitive io.apiserver4j.junit;

  exports io.apiserver4j.junit.fabric8;

  provides io.apiserver4j.junit.ClientFactory
      with io.apiserver4j.junit.fabric8.KubernetesClientFactory;
}
