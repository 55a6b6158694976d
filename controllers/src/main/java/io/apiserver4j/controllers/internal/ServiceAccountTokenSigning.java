/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import java.security.PrivateKey;

/**
 * What the serviceaccount-token controller signs and fills tokens with: the key of
 * kube-controller-manager's {@code --service-account-private-key-file} and the CA of its
 * {@code --root-ca-file} (empty: no {@code ca.crt}).
 *
 * @param privateKey the RSA or ECDSA key tokens are signed with
 * @param rootCa the CA bundle written as {@code ca.crt}; may be empty
 */
public record ServiceAccountTokenSigning(PrivateKey privateKey, byte[] rootCa) {
  /** Copies the CA. */
  public ServiceAccountTokenSigning {
    requireNonNull(privateKey, "privateKey");
    rootCa = rootCa.clone();
  }

  /** A copy of the CA bundle. */
  @Override
  public byte[] rootCa() {
    return rootCa.clone();
  }
}
