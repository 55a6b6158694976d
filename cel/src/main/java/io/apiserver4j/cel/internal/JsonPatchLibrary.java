/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

/**
 * kube's {@code jsonpatch.escapeKey(string)} (k8s.io/apiserver/pkg/cel/library/jsonpatch.go):
 * a map key as a JSON pointer token ({@code ~} as {@code ~0}, {@code /} as {@code ~1}).
 */
final class JsonPatchLibrary {
  private JsonPatchLibrary() {}

  static void add(CelBuilder b) {
    b.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("jsonpatch.escapeKey",
        CelOverloadDecl.newGlobalOverload("string_jsonpatch_escapekey_string",
            SimpleType.STRING, SimpleType.STRING)));
    b.addFunctionBindings(CelFunctionBinding.from("string_jsonpatch_escapekey_string",
        String.class, k -> k.replace("~", "~0").replace("/", "~1")));
  }
}
