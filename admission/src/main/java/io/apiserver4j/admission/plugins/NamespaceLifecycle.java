/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's {@code NamespaceLifecycle} plugin: objects are created only in existing,
 * active namespaces, and the immortal namespaces cannot be deleted.
 *
 * <ul>
 *   <li>DELETE of an immortal namespace (by default {@code default}, {@code kube-system},
 *       {@code kube-public}): 403 {@code namespaces "default" is forbidden: this namespace may
 *       not be deleted}.
 *   <li>CREATE in a missing namespace: 404 {@code namespaces "<ns>" not found}.
 *   <li>CREATE in a terminating namespace: 403 {@code <resource> "<name>" is forbidden: unable
 *       to create new content in namespace <ns> because it is being terminated}, with a
 *       {@code NamespaceTerminating} cause on {@code metadata.namespace}.
 *   <li>Exempt, as in kube: cluster-scoped objects, namespaces themselves, updates and deletes of
 *       namespaced objects, and {@code localsubjectaccessreviews.authorization.k8s.io} (whose
 *       errors would reveal which namespaces exist).
 * </ul>
 *
 * <p>kube implements this as a mutating-phase plugin that never mutates; here it checks in both
 * phases: in the mutating phase, as kube, so that a later mutating plugin (ServiceAccount) never
 * looks into a missing namespace, and again in the validating phase. Either way it runs after
 * {@link NamespaceAutoProvision}. Side effects: none. Thread-safe.
 */
public final class NamespaceLifecycle implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "NamespaceLifecycle";

  /** The namespaces kube-apiserver never lets anyone delete. */
  public static final Set<String> DEFAULT_IMMORTAL_NAMESPACES =
      Set.of("default", "kube-system", "kube-public");

  private static final GroupResource ACCESS_REVIEWS =
      new GroupResource("authorization.k8s.io", "localsubjectaccessreviews");

  private final NamespaceStore namespaces;
  private final Set<String> immortal;

  /**
   * With kube's immortal namespaces.
   *
   * @param namespaces where namespace phases are read
   */
  public NamespaceLifecycle(NamespaceStore namespaces) {
    this(namespaces, DEFAULT_IMMORTAL_NAMESPACES);
  }

  /**
   * With other immortal namespaces.
   *
   * @param namespaces where namespace phases are read
   * @param immortalNamespaces namespaces that cannot be deleted
   */
  public NamespaceLifecycle(NamespaceStore namespaces, Set<String> immortalNamespaces) {
    this.namespaces = requireNonNull(namespaces, "namespaces");
    this.immortal = Set.copyOf(immortalNamespaces);
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
    return a.operation() != Operation.CONNECT;
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    validate(a);
    return object;
  }

  @Override
  public void admitWithoutObject(AdmissionAttributes a) {
    validate(a);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    boolean isNamespace = Namespaces.isNamespace(a);
    if (a.operation() == Operation.DELETE && isNamespace && immortal.contains(a.name())) {
      throw StatusErrors.forbidden(a.resource().groupResource(), a.name(),
          "this namespace may not be deleted");
    }
    if (isNamespace || a.namespace().isEmpty()) {
      return;
    }
    if (a.operation() != Operation.CREATE) {
      return;
    }
    if (a.resource().groupResource().equals(ACCESS_REVIEWS)) {
      return;
    }
    Optional<NamespacePhase> phase = namespaces.phase(a.namespace());
    if (phase.isEmpty()) {
      throw StatusErrors.notFound(Namespaces.NAMESPACES, a.namespace());
    }
    if (phase.get() == NamespacePhase.TERMINATING) {
      ForbiddenException denial = AdmissionErrors.forbidden(a, "unable to create new content in"
          + " namespace " + a.namespace() + " because it is being terminated");
      StatusDetails details = denial.status().details().orElseThrow();
      List<StatusCause> causes = new ArrayList<>(details.causes());
      causes.add(new StatusCause("NamespaceTerminating",
          "namespace " + a.namespace() + " is being terminated", "metadata.namespace"));
      throw new ForbiddenException(denial.status().withDetails(details.withCauses(causes)));
    }
  }
}
