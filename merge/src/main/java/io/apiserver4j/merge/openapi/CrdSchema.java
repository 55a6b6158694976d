/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;

/**
 * The structured-merge-diff schema of one version of a CustomResourceDefinition.
 *
 * @param smdSchema the schema in SMD's own format ({@code types: [...]}), ready for the merge
 *     engine's schema loader
 * @param rootTypeName the name of the type in {@code smdSchema} that describes a whole custom
 *     resource of this version
 */
public record CrdSchema(MapValue smdSchema, String rootTypeName) {
  /**
   * Checks that no component is null.
   *
   * @param smdSchema see the record component
   * @param rootTypeName see the record component
   * @throws NullPointerException when a component is null
   */
  public CrdSchema {
    requireNonNull(smdSchema, "smdSchema");
    requireNonNull(rootTypeName, "rootTypeName");
  }
}
