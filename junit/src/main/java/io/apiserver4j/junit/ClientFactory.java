/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

/**
 * Makes clients of one type connected to a test server, for injection into the fields and
 * parameters of {@link ApiServerTest} classes. Implementations are found with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/io.apiserver4j.junit.ClientFactory}
 * entry), so adding a module such as {@code apiserver4j-junit-fabric8} to the test class path is
 * all it takes.
 *
 * <p>One client is made per server, on first use, and closed when the server stops. A factory is
 * instantiated once per test run (per JUnit engine execution, never in static state), so it may
 * keep what its clients can share (thread pools, serializers) and release it in
 * {@link #shutdown()}. Implementations must be thread-safe and have a public no-argument
 * constructor.
 *
 * @param <T> the client type
 */
public interface ClientFactory<T> {
  /** The injected type: fields and parameters of exactly this type are injected. */
  Class<T> type();

  /**
   * Loads and builds, ahead of the first {@link #create}, what does not depend on a server
   * (thread pools, serializers, their classes). Called once per test run on a background thread
   * while the first server starts, so that the two cold starts overlap; by default nothing.
   * Must be safe to run concurrently with {@link #create} and {@link #shutdown()}; a failure is
   * logged and left to {@link #create} to report.
   */
  default void prepare() throws Exception {}

  /** A client connected to {@code server} (its URL, kubeconfig and default namespace). */
  T create(TestApiServer server);

  /** Releases what {@link #create} acquired; by default, closes an {@link AutoCloseable}. */
  default void close(T client) throws Exception {
    if (client instanceof AutoCloseable c) {
      c.close();
    }
  }

  /** Releases what the clients shared, once the test run is over; by default nothing. */
  default void shutdown() throws Exception {}
}
