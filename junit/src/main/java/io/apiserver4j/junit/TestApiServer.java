/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.junit.internal.TestServer;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * One server started by {@link ApiServerTest}: the in-process {@link ApiServer}, its
 * {@link HttpApiServer} on a loopback port, the clock, the kubeconfig and the clients of the
 * {@link ClientFactory}s on the class path.
 *
 * <p>Thread-safe. Valid until the extension stops the server (after the class, or after the test
 * with {@link ApiServerTest.Lifecycle#PER_METHOD}).
 */
public interface TestApiServer {
  /**
   * A server as {@link ApiServerTest} starts one with its defaults (kube's namespaces, the
   * admission plugins but ServiceAccount, no controllers), outside JUnit: for a benchmark or a
   * {@code main}. The caller closes it.
   *
   * @param manifests class path resources or files to create, as {@link WithManifests} takes them
   * @return the started server
   */
  static Standalone start(String... manifests) {
    return TestServer.start(List.of(manifests), TestApiServer.class.getClassLoader(), Map.of(),
        List.of());
  }

  /**
   * A server as {@link #start} starts one, with kube-controller-manager's controllers running on
   * its clock as {@code @ApiServerTest(controllers = ...)} runs them, outside JUnit. The caller
   * closes it.
   *
   * @param controllers kube-controller-manager's {@code --controllers} values, e.g. {@code "*"}
   * @param manifests class path resources or files to create, as {@link WithManifests} takes them
   * @return the started server
   * @throws IllegalArgumentException if a value names a controller this project does not run
   */
  static Standalone startWithControllers(List<String> controllers, String... manifests) {
    return TestServer.start(List.of(manifests), TestApiServer.class.getClassLoader(), Map.of(),
        List.copyOf(controllers));
  }

  /** A {@link TestApiServer} started by {@link #start}; {@link #close} stops it. */
  interface Standalone extends TestApiServer, AutoCloseable {
    /** Stops HTTP, the controllers and the server, and deletes the kubeconfig file. */
    @Override
    void close();
  }

  /** The in-process server: requests through it skip HTTP. */
  ApiServer api();

  /**
   * The HTTP server, started on the first call of this method, {@link #url()},
   * {@link #kubeconfig()} or {@link #client}: a test that only uses {@link #api()} runs without
   * it.
   *
   * @throws java.io.UncheckedIOException if it cannot bind its port or write the kubeconfig
   * @throws IllegalStateException after the server was closed
   */
  HttpApiServer http();

  /** The base URL clients use, e.g. {@code http://127.0.0.1:41234}. */
  default URI url() {
    return http().url();
  }

  /** The clock of every timestamp the server writes. */
  TestClock clock();

  /** The kubeconfig file pointing at {@link #url()}. */
  TestKubeconfig kubeconfig();

  /** Shorthand for {@code api().resources(apiVersion, plural)}. */
  default ResourceClient resources(String apiVersion, String plural) {
    return api().resources(apiVersion, plural);
  }

  /**
   * The client of {@code type} connected to this server, made by the {@link ClientFactory} of
   * that type on first use and closed with the server.
   *
   * @throws IllegalArgumentException if no factory on the class path makes {@code type}
   */
  <T> T client(Class<T> type);

  /**
   * Creates the objects of manifests, as {@link WithManifests} does.
   *
   * @throws IllegalArgumentException if a location matches nothing or a document is not an object
   * @throws io.apiserver4j.core.errors.StatusException if the server rejects an object
   */
  void load(String... locations);

  /**
   * Restores the storage to what it held when the server was ready (its namespaces and
   * {@link WithManifests} objects), and the clock and the uid and name sequences to where they
   * were then. Objects written since are deleted or put back, custom resources follow their
   * definitions; resourceVersions keep increasing, as they do in etcd, so a client's watch from
   * before the reset sees the changes. It writes the storage directly, without admission,
   * finalizers or graceful deletion.
   *
   * <p>Running controllers are reset in place ({@code ControllerManager.reset}): paused while
   * the storage is written back, their queued work, timers and expectations dropped, their
   * informers brought to the restored storage, so they act as if just started on it, without a
   * thread started or stopped; simulated Nodes are started again. The reset returns once they
   * are idle on the restored state.
   */
  void reset();

  /**
   * Waits, without sleeping, until the controllers of {@link ApiServerTest#controllers()} and
   * the simulated Nodes of {@link ApiServerTest#nodes()} are idle: they have seen every write
   * (each other's too), have nothing queued, and no timer of theirs is due on the
   * {@link TestClock} (advance it first to let a due timer run). True at once when none run.
   *
   * @return whether they were idle within {@code timeout}
   */
  boolean awaitControllersIdle(java.time.Duration timeout);
}
