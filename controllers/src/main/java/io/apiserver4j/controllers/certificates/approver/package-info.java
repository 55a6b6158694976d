/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's CSR approver (pkg/controller/certificates/approver): kubelet client certificate
 * requests approved when a SubjectAccessReview allows their requester to create them.
 */
package io.apiserver4j.controllers.certificates.approver;
