/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/** Whether an apply takes fields from other managers ({@code YES}) or reports conflicts ({@code NO}). */
public enum Force {
  /** Report fields owned by other managers as conflicts; change nothing. */
  NO,
  /** Take the fields from their other owners. */
  YES
}
