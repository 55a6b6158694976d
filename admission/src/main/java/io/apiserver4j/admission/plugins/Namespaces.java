/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;

/** Shared knowledge of the namespace plugins. */
final class Namespaces {
  static final GroupKind NAMESPACE_KIND = new GroupKind("", "Namespace");
  static final GroupResource NAMESPACES = new GroupResource("", "namespaces");

  private Namespaces() {}

  static boolean isNamespace(AdmissionAttributes a) {
    return a.kind().groupKind().equals(NAMESPACE_KIND);
  }
}
