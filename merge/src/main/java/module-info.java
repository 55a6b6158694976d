/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Schemas, typed values and the server-side apply updater: apply and update with managers,
 * conflicts and versions. {@code io.apiserver4j.merge.openapi} converts OpenAPI v3 and CRD schemas
 * into the merge engine's schemas.
 */
module io.apiserver4j.merge {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.fieldpath;

  exports io.apiserver4j.merge;
  exports io.apiserver4j.merge.openapi;
}
