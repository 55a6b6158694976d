/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.serviceaccount;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.NamespaceDefaults;
import io.apiserver4j.storage.Store;
import java.util.Map;

/**
 * kube-controller-manager's serviceaccount controller: every active namespace has the
 * {@code default} ServiceAccount, created with the namespace and again whenever it is deleted,
 * written as {@code system:serviceaccount:kube-system:service-account-controller} (managed by
 * {@code kube-controller-manager}). Ships with {@link ServiceAccountAdmission}, which refuses
 * every Pod without it. Thread-safe.
 */
public final class DefaultServiceAccountController extends NamespaceDefaults {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "serviceaccount";

  private DefaultServiceAccountController(ApiServer server, Store store) {
    super(server, store, new GroupVersionResource("", "v1", "serviceaccounts"),
        ServiceAccountAdmission.DEFAULT_SERVICE_ACCOUNT, "service-account-controller");
  }

  /**
   * Starts the controller on {@code server}: the namespaces that exist now have their
   * ServiceAccount when this returns; later ones get it in the background.
   *
   * @param server the server written through
   * @param store its storage, followed by the controller's informers
   * @return the running controller; close it to stop it
   */
  public static DefaultServiceAccountController start(ApiServer server, Store store) {
    DefaultServiceAccountController c = new DefaultServiceAccountController(server, store);
    c.start();
    return c;
  }

  @Override
  protected MapValue desired(String namespace) {
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("ServiceAccount"),
        "metadata", metadata(namespace, Map.of()));
  }
}
