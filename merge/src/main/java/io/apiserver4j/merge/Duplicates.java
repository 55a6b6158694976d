/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/**
 * Whether sets and associative lists may hold several items with the same identity. Appliers may
 * not send duplicates; updates (plain writes) may, as in SMD's {@code AllowDuplicates}.
 */
public enum Duplicates {
  /** Duplicate items are validation errors (applied configurations). */
  REJECT,
  /** Duplicate items are accepted and treated atomically (plain updates). */
  ALLOW
}
