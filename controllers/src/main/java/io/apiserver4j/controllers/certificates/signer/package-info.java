/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's CSR signer (pkg/controller/certificates/signer and .../authority): approved requests of
 * kube's built-in signers signed by a cluster CA, with X.509 certificates built on the JDK.
 */
package io.apiserver4j.controllers.certificates.signer;
