/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.authz.Authenticators;
import java.nio.file.Path;
import java.util.Optional;

/**
 * TLS from PEM files, like kube-apiserver's {@code --tls-cert-file},
 * {@code --tls-private-key-file} and {@code --client-ca-file}. With a client CA, clients may
 * present a certificate signed by it (verified during the handshake; an untrusted certificate
 * fails the handshake) and {@link Authenticators#clientCertificates()} turns it into a user.
 *
 * @param certificateChain PEM certificate chain, server certificate first
 * @param privateKey PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC; not encrypted)
 * @param clientCa PEM bundle of CAs for client certificates
 */
public record TlsOptions(Path certificateChain, Path privateKey, Optional<Path> clientCa) {
  public TlsOptions {
    requireNonNull(certificateChain, "certificateChain");
    requireNonNull(privateKey, "privateKey");
    requireNonNull(clientCa, "clientCa");
  }

  public static TlsOptions of(Path certificateChain, Path privateKey) {
    return new TlsOptions(certificateChain, privateKey, Optional.empty());
  }

  /** These options, also accepting client certificates signed by the CAs in {@code caBundle}. */
  public TlsOptions withClientCa(Path caBundle) {
    return new TlsOptions(certificateChain, privateKey, Optional.of(requireNonNull(caBundle,
        "caBundle")));
  }
}
