/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.storage.Store;
import java.util.function.Function;

/**
 * A kube-controller-manager controller the built-in API runs inside every server where the
 * admission plugin it belongs to is enabled (the ServiceAccount plugin refuses every Pod without
 * the {@code default} ServiceAccount its controller writes).
 *
 * <p>A server runs one of these, and its own namespace controller ({@value #NAMESPACE}), until a
 * controller manager that runs the controller of the same name takes it over with {@link
 * ApiServer#handOver}, so that exactly one instance runs.
 *
 * @param name the controller's name in kube-controller-manager, for logs
 * @param admissionPlugin the admission plugin it ships with
 * @param start starts the controller for a server; closing the result stops it
 */
public record BuiltinController(String name, String admissionPlugin,
    Function<Context, AutoCloseable> start) {
  /**
   * The name of the server's own namespace controller (kube-controller-manager's
   * {@code namespace}): it deletes the content of a terminating namespace through the server and
   * the namespace with it once empty, synchronously after the write that made it so.
   */
  public static final String NAMESPACE = "namespace";

  /**
   * Checks that no component is null.
   *
   * @param name see the record component
   * @param admissionPlugin see the record component
   * @param start see the record component
   */
  public BuiltinController {
    requireNonNull(name, "name");
    requireNonNull(admissionPlugin, "admissionPlugin");
    requireNonNull(start, "start");
  }

  /**
   * What a controller runs on.
   *
   * @param server the server it writes through (as kube's controllers write through the API)
   * @param store the server's storage, for informers
   * @param rootCaCertificate the PEM of the cluster's CA (what kube-controller-manager's
   *     {@code --root-ca-file} names)
   */
  public record Context(ApiServer server, Store store, String rootCaCertificate) {
    /**
     * Checks that no component is null.
     *
     * @param server see the record component
     * @param store see the record component
     * @param rootCaCertificate see the record component
     */
    public Context {
      requireNonNull(server, "server");
      requireNonNull(store, "store");
      requireNonNull(rootCaCertificate, "rootCaCertificate");
    }
  }

  /**
   * A server's built-in controller stopped for whoever runs it instead (see {@link
   * ApiServer#handOver}). Closing gives it back: the server starts its own again once every
   * handover of that name is closed, unless the server was closed. Idempotent, thread-safe.
   */
  public interface Handover extends AutoCloseable {
    /**
     * Starts the server's implementation of the handed-over controller for the holder of this
     * handover (a controller manager that has no implementation of its own runs the server's
     * under its own lifecycle); the holder stops it by closing the result, before it closes
     * this handover.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    AutoCloseable startInstance();

    /** Gives the controller back to the server; never throws. */
    @Override
    void close();
  }
}
