/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.Nested;

/**
 * kube-apiserver's {@code CertificateApproval} plugin
 * ({@code plugin/pkg/admission/certificates/approval}): a write to a CertificateSigningRequest's
 * {@code approval} subresource is refused (403 {@code user not permitted to approve requests with
 * signerName "<s>"}) unless the server's authorizer lets the user {@code approve} the
 * {@code signers} resource named by the signer (or its {@code domain/*}). Side effects: none.
 * Thread-safe.
 */
public final class CertificateApproval implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "CertificateApproval";

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
    return a.subresource().equals("approval") && a.object().isPresent()
        && a.resource().group().equals("certificates.k8s.io")
        && a.resource().resource().equals("certificatesigningrequests");
  }

  @Override
  public void validate(AdmissionAttributes a) {
    String signer = Nested.str(a.object().orElseThrow(), "spec", "signerName");
    if (!SignerAuthorization.allowed(a, "approve", signer)) {
      throw AdmissionErrors.forbidden(a, "user not permitted to approve requests with signerName \""
          + signer + "\"");
    }
  }
}
