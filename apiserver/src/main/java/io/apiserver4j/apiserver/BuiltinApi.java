/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.admission.BuiltinAdmissionPlugin;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.kubeapi.KubeVersion;
import java.util.List;
import java.util.Map;
import io.apiserver4j.apiserver.internal.BuiltinApiLoader;
import java.util.ServiceLoader;

/**
 * The built-in kinds an {@link ApiServer} serves, as kube-apiserver's control plane installs its
 * registries into the generic server: implemented by {@code apiserver4j-registry} (the 1.36 kinds
 * with kube's strategies, validation, printers and subresources) and found with
 * {@link ServiceLoader}, so the generic server depends on no kind.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface BuiltinApi {
  /** The definitions of the built-in resources, in registration order (immutable). */
  List<ResourceDefinition> definitions();

  /**
   * The definitions of the resources Kubernetes {@code version} serves by default, with that
   * release's schema, in registration order (immutable). Default: {@link #definitions()} for
   * the newest release; an implementation that knows no other release refuses the rest.
   *
   * @throws IllegalArgumentException for a release this API does not have
   */
  default List<ResourceDefinition> definitions(KubeVersion version) {
    if (version == KubeVersion.latest()) {
      return definitions();
    }
    throw new IllegalArgumentException(getClass().getName() + " has no Kubernetes " + version
        + " API");
  }

  /**
   * The answers of the review resources (TokenReview, SubjectAccessReview, ...) that a
   * kube-apiserver with its default authenticator and authorizer gives, by resource.
   */
  Map<GroupResource, VirtualCreate> defaultVirtualCreates();

  /**
   * kube-apiserver's admission plugins in kube's order ({@code AllOrderedPlugins}) as far as this
   * API knows them, each with whether it is on by default: the server runs the enabled ones.
   * Default: none.
   */
  default List<BuiltinAdmissionPlugin> admissionPlugins() {
    return List.of();
  }

  /**
   * The kube-controller-manager controllers that ship with an admission plugin (e.g. the
   * {@code default} ServiceAccount of every namespace), started by a server that runs that plugin.
   * Default: none.
   */
  default List<BuiltinController> controllers() {
    return List.of();
  }

  /**
   * The one implementation on the class or module path.
   *
   * @throws IllegalStateException when there is none (add {@code io.apiserver4j:apiserver4j-
   *     registry}) or more than one
   */
  static BuiltinApi load() {
    return BuiltinApiLoader.instance();
  }
}
