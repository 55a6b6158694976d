/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The embeddable API server: the generic request path (every verb and patch type, managed
 * fields, admission, dry run, optimistic concurrency) over a pluggable store, serving the
 * built-in kinds a {@link io.apiserver4j.apiserver.BuiltinApi} declares and the custom
 * resources of the CRDs it stores.
 */
module io.apiserver4j.apiserver {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.fieldpath;
  requires transitive io.apiserver4j.merge;
  requires transitive io.apiserver4j.admission;
  requires transitive io.apiserver4j.storage;
  requires transitive io.apiserver4j.dryrun;
  requires transitive io.apiserver4j.apimachinery;
  requires transitive io.apiserver4j.apiextensions;
  requires transitive io.apiserver4j.kubeapi;
  requires org.slf4j;

  exports io.apiserver4j.apiserver;
  exports io.apiserver4j.apiserver.admission;
  exports io.apiserver4j.apiserver.answer;
  exports io.apiserver4j.apiserver.informer;
  exports io.apiserver4j.apiserver.kubelet;
  exports io.apiserver4j.apiserver.strategy;

  uses io.apiserver4j.apiserver.BuiltinApi;
}
