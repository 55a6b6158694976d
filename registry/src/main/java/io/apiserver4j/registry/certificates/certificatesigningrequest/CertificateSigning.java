/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.util.Objects;

/**
 * kube-apiserver's {@code CertificateSigning} plugin
 * ({@code plugin/pkg/admission/certificates/signing}): a write to a CertificateSigningRequest's
 * {@code status} that changes {@code status.certificate} is refused (403 {@code user not
 * permitted to sign requests with signerName "<s>"}) unless the server's authorizer lets the user
 * {@code sign} the {@code signers} resource named by the signer (or its {@code domain/*}). Side
 * effects: none. Thread-safe.
 */
public final class CertificateSigning implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "CertificateSigning";

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
    return a.subresource().equals("status") && a.object().isPresent()
        && a.oldObject().isPresent() && a.resource().group().equals("certificates.k8s.io")
        && a.resource().resource().equals("certificatesigningrequests");
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue csr = a.object().orElseThrow();
    MapValue old = a.oldObject().orElseThrow();
    // only a change of the issued certificate is signing
    if (Objects.equals(Nested.getOrNull(csr, "status", "certificate"),
        Nested.getOrNull(old, "status", "certificate"))) {
      return;
    }
    String signer = Nested.str(old, "spec", "signerName");
    if (!SignerAuthorization.allowed(a, "sign", signer)) {
      throw AdmissionErrors.forbidden(a, "user not permitted to sign requests with signerName \""
          + signer + "\"");
    }
  }
}
