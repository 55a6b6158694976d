/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's CSR cleaner (pkg/controller/certificates/cleaner): CertificateSigningRequests deleted
 * once kept long enough for their state, on the server clock.
 */
package io.apiserver4j.controllers.certificates.cleaner;
