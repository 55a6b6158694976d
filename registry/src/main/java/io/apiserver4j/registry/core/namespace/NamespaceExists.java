/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.namespace;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.storage.ObjectKey;

/**
 * kube-apiserver's {@code NamespaceExists} plugin ({@code plugin/pkg/admission/namespace/exists},
 * off by default): a create, update or delete in a namespace that does not exist is refused with
 * the namespace's 404 ({@code namespaces "<ns>" not found}); requests for Namespaces themselves
 * and cluster-scoped ones pass. Side effects: none. Thread-safe.
 */
public final class NamespaceExists implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "NamespaceExists";

  private final AdmissionPluginContext server;

  /**
   * A plugin reading Namespaces from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public NamespaceExists(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    Operation op = a.operation();
    return (op == Operation.CREATE || op == Operation.UPDATE || op == Operation.DELETE)
        && !a.namespace().isEmpty()
        && !(a.kind().group().isEmpty() && a.kind().kind().equals("Namespace"));
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (server.get(ObjectKey.clusterScoped("", "namespaces", a.namespace())).isEmpty()) {
      throw StatusErrors.notFound(new GroupResource("", "namespaces"), a.namespace());
    }
  }
}
