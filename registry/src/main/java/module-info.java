/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The built-in kinds of Kubernetes 1.36, laid out like kube's pkg/registry: per group and kind
 * its strategy (defaults, validation, subresources, allocators) and printer columns. It exports
 * nothing: the server finds it as its {@link io.apiserver4j.apiserver.BuiltinApi}.
 */
module io.apiserver4j.registry {
  requires io.apiserver4j.apiserver;
  requires org.slf4j;

  provides io.apiserver4j.apiserver.BuiltinApi with io.apiserver4j.registry.KubeBuiltinApi;
}
