/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry;

import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.apiserver.strategy.VirtualCreate;
import io.apiserver4j.apiserver.BuiltinApi;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.apiserver.admission.BuiltinAdmissionPlugin;
import io.apiserver4j.apiserver.BuiltinController;
import java.util.List;
import java.util.Map;
import io.apiserver4j.registry.internal.DefaultVirtualCreates;

/**
 * The Kubernetes 1.36 kinds of this registry (and those of 1.33 to 1.35), as the server's
 * {@link BuiltinApi}.
 */
public final class KubeBuiltinApi implements BuiltinApi {
  /** Made by {@link java.util.ServiceLoader}. */
  public KubeBuiltinApi() {}

  @Override
  public List<ResourceDefinition> definitions() {
    return BuiltinKinds.definitions();
  }

  @Override
  public List<ResourceDefinition> definitions(KubeVersion version) {
    return BuiltinKinds.definitions(java.util.Objects.requireNonNull(version, "version"));
  }

  @Override
  public Map<GroupResource, VirtualCreate> defaultVirtualCreates() {
    return DefaultVirtualCreates.of();
  }

  @Override
  public List<BuiltinAdmissionPlugin> admissionPlugins() {
    return KubeAdmissionPlugins.ordered();
  }

  @Override
  public List<BuiltinController> controllers() {
    return KubeAdmissionPlugins.controllers();
  }
}
