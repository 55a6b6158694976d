/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Pod Security Standards and kube-apiserver's PodSecurity admission plugin, as kube's
 * {@code k8s.io/pod-security-admission}: the baseline and restricted checks of every policy version,
 * the evaluator, policies from namespace labels, the {@code PodSecurityConfiguration} and the
 * plugin on the admission SPI.
 */
module io.apiserver4j.podsecurity {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.admission;
  requires io.apiserver4j.apimachinery;
  requires org.slf4j;

  exports io.apiserver4j.podsecurity;
}
