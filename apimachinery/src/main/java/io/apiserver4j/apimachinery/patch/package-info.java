/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The patch types kube-apiserver accepts ({@link io.apiserver4j.apimachinery.patch.PatchType}):
 * JSON merge patch and strategic merge patch with their schemas and error texts, applied through
 * {@link io.apiserver4j.apimachinery.patch.Patches}.
 */
package io.apiserver4j.apimachinery.patch;
