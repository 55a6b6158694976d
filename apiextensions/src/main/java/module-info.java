/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * CustomResourceDefinitions as apiextensions-apiserver checks them: structural schemas, their
 * validation, defaulting and pruning, CEL rules with kube's cost limits, and the validation of
 * CRD objects themselves.
 */
module io.apiserver4j.apiextensions {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.merge;
  requires transitive io.apiserver4j.cel;
  requires transitive io.apiserver4j.apimachinery;

  exports io.apiserver4j.apiextensions;
}
