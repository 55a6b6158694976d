/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The generated Kubernetes API data of each served release: schemas, resources, discovery,
 * OpenAPI and protobuf.
 */
module io.apiserver4j.kubeapi {
  requires transitive io.apiserver4j.core;

  exports io.apiserver4j.kubeapi;
}
