/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Custom resources as kube-apiserver validates them, usable without a server:
 * {@link io.apiserver4j.apiextensions.CrdValidator} checks objects against a CRD version's
 * structural schema and CEL rules, applies its defaults, prunes unknown fields, and checks the
 * CRD's own schemas. The server uses the same validator for every served CRD version.
 */
package io.apiserver4j.apiextensions;
