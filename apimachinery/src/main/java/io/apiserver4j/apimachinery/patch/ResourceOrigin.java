/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

/**
 * Where a resource's type comes from, which decides the patch formats kube-apiserver accepts
 * for it: custom resources have no strategic merge patch (see {@link PatchType#accepted}).
 */
public enum ResourceOrigin {
  /** A kind compiled into the server (kube's built-in types), with patch strategies. */
  BUILT_IN,
  /** A kind defined by a CustomResourceDefinition. */
  CUSTOM_RESOURCE
}
