/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Admission configured by policy objects, as kube-apiserver's ValidatingAdmissionPolicy and
 * MutatingAdmissionPolicy plugins: {@link io.apiserver4j.admission.policy.ValidatingAdmissionPolicies}
 * and {@link io.apiserver4j.admission.policy.MutatingAdmissionPolicies} compile a snapshot of
 * policies and bindings once and evaluate requests with kube's CEL variables and texts;
 * {@link io.apiserver4j.admission.policy.PolicyContext} is what they read from the server
 * (namespaces, parameter objects of any kind, the authorizer);
 * {@link io.apiserver4j.admission.policy.PolicyTypeChecker} computes a policy's
 * {@code status.typeChecking}. Matching is the shared {@code admission.matching} package.
 */
package io.apiserver4j.admission.policy;
