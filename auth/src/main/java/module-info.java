/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Who may do what, as kube-apiserver decides it: the RBAC authorizer with its bootstrap policy,
 * ClusterRole aggregation and escalation checks, the review resources, static token files,
 * ServiceAccount tokens, and audit policies with their log sink.
 */
module io.apiserver4j.auth {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.admission;
  requires transitive io.apiserver4j.authz;
  requires transitive io.apiserver4j.storage;
  requires transitive io.apiserver4j.apiserver;
  requires io.apiserver4j.apimachinery;
  requires org.slf4j;

  exports io.apiserver4j.auth;
  exports io.apiserver4j.auth.audit;
  exports io.apiserver4j.auth.tokens;
}
