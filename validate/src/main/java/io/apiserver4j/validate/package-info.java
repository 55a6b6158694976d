/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Manifests validated as {@code kubectl apply --dry-run=server} against a fresh cluster would
 * answer: read them with {@link io.apiserver4j.validate.Manifests}, validate them with {@link
 * io.apiserver4j.validate.ManifestValidator}, print the {@link io.apiserver4j.validate.Verdict}s
 * with {@link io.apiserver4j.validate.Reports}.
 */
package io.apiserver4j.validate;
