/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.registry.internal.Admissions;

/**
 * kube-apiserver's {@code CertificateSubjectRestriction} plugin
 * ({@code plugin/pkg/admission/certificates/subjectrestriction}): a CertificateSigningRequest for
 * the {@code kubernetes.io/kube-apiserver-client} signer whose subject has the organization
 * {@code system:masters} is refused (403 {@code use of kubernetes.io/kube-apiserver-client signer
 * with system:masters group is not allowed}). Side effects: none. Thread-safe.
 */
public final class CertificateSubjectRestriction implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "CertificateSubjectRestriction";
  static final String SIGNER = "kubernetes.io/kube-apiserver-client";

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
    return Admissions.isMain(a, "certificates.k8s.io", "certificatesigningrequests",
        Operation.CREATE);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue csr = a.object().orElseThrow();
    if (!Nested.str(csr, "spec", "signerName").equals(SIGNER)) {
      return;
    }
    if (CertificateRequests.subjectOrganizations(Nested.str(csr, "spec", "request"))
        .contains("system:masters")) {
      throw AdmissionErrors.forbidden(a, "use of " + SIGNER
          + " signer with system:masters group is not allowed");
    }
  }
}
