/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates.certificatesigningrequest;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.cel.CelAuthorizer;

/**
 * kube's {@code IsAuthorizedForSignerName}: whether the request's user may {@code verb} the
 * signer, asked of the server's authorizer for the {@code signers} resource of
 * {@code certificates.k8s.io} named by the signer, then by its domain wildcard
 * ({@code example.com/*}).
 */
final class SignerAuthorization {
  private SignerAuthorization() {}

  static boolean allowed(AdmissionAttributes a, String verb, String signerName) {
    CelAuthorizer authorizer = a.authorizer();
    if (check(authorizer, verb, signerName)) {
      return true;
    }
    int slash = signerName.indexOf('/');
    return slash >= 0 && check(authorizer, verb, signerName.substring(0, slash) + "/*");
  }

  private static boolean check(CelAuthorizer authorizer, String verb, String name) {
    return authorizer.check(new CelAuthorizer.Check("", "", "certificates.k8s.io", "signers", "",
        "", name, verb)).allowed();
  }
}
