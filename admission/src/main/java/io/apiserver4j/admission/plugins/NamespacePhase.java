/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

/** A namespace's {@code status.phase}. */
public enum NamespacePhase {
  /** The namespace accepts new objects. */
  ACTIVE("Active"),
  /** The namespace is being deleted: no new objects. */
  TERMINATING("Terminating");

  private final String wireName;

  NamespacePhase(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The phase as in {@code status.phase}.
   *
   * @return {@code Active} or {@code Terminating}
   */
  public String wireName() {
    return wireName;
  }
}
