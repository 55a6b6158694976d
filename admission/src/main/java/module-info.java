/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The admission chain and its SPI (mutating and validating plugins), the built-in plugins, the
 * match rules shared by policies and webhooks, admission policies (CEL) and admission webhooks.
 */
module io.apiserver4j.admission {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.cel;
  requires io.apiserver4j.apimachinery;
  requires java.net.http;
  requires org.slf4j;

  exports io.apiserver4j.admission;
  exports io.apiserver4j.admission.matching;
  exports io.apiserver4j.admission.plugins;
  exports io.apiserver4j.admission.policy;
  exports io.apiserver4j.admission.quota;
  exports io.apiserver4j.admission.webhook;
}
