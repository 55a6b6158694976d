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
 * @param name the controller's name in kube-controller-manager, for logs
 * @param admissionPlugin the admission plugin it ships with
 * @param start starts the controller for a server; closing the result stops it
 */
public record BuiltinController(String name, String admissionPlugin,
    Function<Context, AutoCloseable> start) {

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
}
