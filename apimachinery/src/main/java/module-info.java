/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * What kube's apimachinery gives every API server: Go-compatible decoding of request bodies,
 * the managed-fields manager (kube's chain of field managers over the merge engine), the patch
 * engines (JSON, merge and strategic merge patch), and the shared validation of object
 * metadata, names, labels and the common value formats.
 */
module io.apiserver4j.apimachinery {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.fieldpath;
  requires transitive io.apiserver4j.merge;
  requires org.slf4j;

  exports io.apiserver4j.apimachinery.decoding;
  exports io.apiserver4j.apimachinery.managedfields;
  exports io.apiserver4j.apimachinery.patch;
  exports io.apiserver4j.apimachinery.validation;
}
