/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * What kube's certificate controllers share (pkg/controller/certificates and
 * pkg/apis/certificates helpers): a minimal DER reader and writer on the JDK, PKCS#10 requests
 * as kube's {@code ParseCSR} reads them, the CSR conditions and kube's kubelet CSR rules.
 */
package io.apiserver4j.controllers.certificates;
