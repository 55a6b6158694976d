/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.admissionregistration.mutatingadmissionpolicy.MutatingAdmissionPolicyPrinter;
import io.apiserver4j.registry.admissionregistration.mutatingadmissionpolicybinding.MutatingAdmissionPolicyBindingPrinter;
import io.apiserver4j.registry.admissionregistration.mutatingwebhookconfiguration.MutatingWebhookConfigurationPrinter;
import io.apiserver4j.registry.admissionregistration.mutatingwebhookconfiguration.MutatingWebhookConfigurationStrategy;
import io.apiserver4j.registry.admissionregistration.validatingadmissionpolicy.ValidatingAdmissionPolicyPrinter;
import io.apiserver4j.registry.admissionregistration.validatingadmissionpolicybinding.ValidatingAdmissionPolicyBindingPrinter;
import io.apiserver4j.registry.admissionregistration.validatingwebhookconfiguration.ValidatingWebhookConfigurationPrinter;
import io.apiserver4j.registry.admissionregistration.validatingwebhookconfiguration.ValidatingWebhookConfigurationStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code admissionregistration} API group with their registry behaviour (kube's pkg/registry/admissionregistration). */
public final class AdmissionregistrationGroup {
  private AdmissionregistrationGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    // kube validates the admission policies and their bindings; here they have kube's columns
    // only so far
    return List.of(
        BuiltinKind.of(admission("ValidatingWebhookConfiguration"),
            ValidatingWebhookConfigurationStrategy.strategy(),
            ValidatingWebhookConfigurationPrinter::printer),
        BuiltinKind.of(admission("MutatingWebhookConfiguration"),
            MutatingWebhookConfigurationStrategy.strategy(),
            MutatingWebhookConfigurationPrinter::printer),
        BuiltinKind.of(admission("ValidatingAdmissionPolicy"), ResourceStrategy.defaults(),
            ValidatingAdmissionPolicyPrinter::printer),
        BuiltinKind.of(admission("MutatingAdmissionPolicy"), ResourceStrategy.defaults(),
            MutatingAdmissionPolicyPrinter::printer),
        BuiltinKind.of(admission("ValidatingAdmissionPolicyBinding"),
            ResourceStrategy.defaults(), ValidatingAdmissionPolicyBindingPrinter::printer),
        BuiltinKind.of(admission("MutatingAdmissionPolicyBinding"),
            ResourceStrategy.defaults(), MutatingAdmissionPolicyBindingPrinter::printer));
  }

  private static GroupVersionKind admission(String kind) {
    return new GroupVersionKind("admissionregistration.k8s.io", "v1", kind);
  }
}
