/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.strategy;

/** When {@code metadata.generation} is set and incremented. */
public enum GenerationPolicy {
  /** The kind has no generation (ConfigMap, Secret, Service, ...). */
  NONE,
  /** Generation 1 on create, +1 whenever {@code spec} changes (most workloads). */
  SPEC,
  /** Like {@link #SPEC}, and also when annotations change (Deployment). */
  SPEC_AND_ANNOTATIONS,
  /**
   * Generation 1 on create, +1 whenever anything outside {@code metadata} (and {@code status}
   * when the kind has a status subresource) changes (custom resources, CRDs).
   */
  NON_METADATA
}
