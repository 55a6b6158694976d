/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.certificates;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSigningRequestPrinter;
import io.apiserver4j.registry.certificates.certificatesigningrequest.CertificateSigningRequestStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code certificates} API group with their registry behaviour (kube's pkg/registry/certificates). */
public final class CertificatesGroup {
  private CertificatesGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(BuiltinKind.of(
        new GroupVersionKind("certificates.k8s.io", "v1", "CertificateSigningRequest"),
        CertificateSigningRequestStrategy.strategy(),
        CertificateSigningRequestPrinter::printer));
  }
}
