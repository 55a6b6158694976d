/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube-apiserver's managed fields ({@code k8s.io/apimachinery/pkg/util/managedfields}): the
 * {@link io.apiserver4j.apimachinery.managedfields.FieldManager} of an endpoint, built as kube's
 * chain of {@link io.apiserver4j.apimachinery.managedfields.Manager} decorators, one class per
 * kube file ({@code StructuredMergeManager} for structuredmerge.go, {@code StripMetaManager} for
 * stripmeta.go, and so on), over the merge engine of the {@code merge} module; the
 * {@link io.apiserver4j.apimachinery.managedfields.ScaleHandler} of {@code /scale}.
 */
package io.apiserver4j.apimachinery.managedfields;
