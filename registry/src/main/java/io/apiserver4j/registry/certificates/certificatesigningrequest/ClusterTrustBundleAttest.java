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
import java.util.Objects;

/**
 * kube-apiserver's {@code ClusterTrustBundleAttest} plugin
 * ({@code plugin/pkg/admission/certificates/ctbattest}): creating a ClusterTrustBundle with a
 * {@code spec.signerName}, or changing such a bundle's signer or trust bundle, is refused (403
 * {@code user not permitted to attest for signerName "<s>"}) unless the server's authorizer lets
 * the user {@code attest} the {@code signers} resource named by the signer (or its
 * {@code domain/*}). Side effects: none. Thread-safe.
 */
public final class ClusterTrustBundleAttest implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "ClusterTrustBundleAttest";

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
    return Admissions.isMain(a, "certificates.k8s.io", "clustertrustbundles", Operation.CREATE,
        Operation.UPDATE);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue bundle = a.object().orElseThrow();
    String signer = Nested.str(bundle, "spec", "signerName");
    if (signer.isEmpty()) {
      return;
    }
    if (a.operation() == Operation.UPDATE && a.oldObject().isPresent()) {
      MapValue old = a.oldObject().get();
      // an update that keeps the signer and the bundle attests nothing new
      if (signer.equals(Nested.str(old, "spec", "signerName"))
          && Objects.equals(Nested.getOrNull(old, "spec", "trustBundle"),
              Nested.getOrNull(bundle, "spec", "trustBundle"))) {
        return;
      }
    }
    if (!SignerAuthorization.allowed(a, "attest", signer)) {
      throw AdmissionErrors.forbidden(a, "user not permitted to attest for signerName \""
          + signer + "\"");
    }
  }
}
