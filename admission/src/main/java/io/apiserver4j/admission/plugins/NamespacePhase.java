/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

/** A namespace's {@code status.phase}. */
public enum NamespacePhase {
  ACTIVE("Active"),
  TERMINATING("Terminating");

  private final String wireName;

  NamespacePhase(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
