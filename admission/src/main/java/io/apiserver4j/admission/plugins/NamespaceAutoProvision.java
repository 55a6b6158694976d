/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;

/**
 * kube-apiserver's {@code NamespaceAutoProvision} plugin: a CREATE in a namespace that does not
 * exist creates that namespace first. It never changes the object.
 *
 * <p>Side effects: {@link SideEffects#NONE_ON_DRY_RUN}. On a dry run it creates nothing, so
 * {@link NamespaceLifecycle} (if configured) still rejects the request with 404, as in kube.
 * Namespaces themselves and cluster-scoped objects are ignored. A concurrent creation of the
 * same namespace is tolerated; any other failure to create it is a 403 naming the object.
 * Thread-safe.
 */
public final class NamespaceAutoProvision implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "NamespaceAutoProvision";

  private final NamespaceStore namespaces;

  /**
   * The plugin over a namespace store.
   *
   * @param namespaces where namespaces are looked up and created
   */
  public NamespaceAutoProvision(NamespaceStore namespaces) {
    this.namespaces = requireNonNull(namespaces, "namespaces");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE_ON_DRY_RUN;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return a.operation() == Operation.CREATE;
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    if (a.namespace().isEmpty() || Namespaces.isNamespace(a) || a.isDryRun()) {
      return object;
    }
    if (namespaces.phase(a.namespace()).isPresent()) {
      return object;
    }
    try {
      namespaces.create(a.namespace());
    } catch (AlreadyExistsException e) {
      // Someone else created it between the lookup and the create: that is what we wanted.
    } catch (StatusException e) {
      throw AdmissionErrors.forbidden(a, e.getMessage());
    }
    return object;
  }
}
