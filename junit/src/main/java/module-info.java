/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A JUnit 5 test kit: an in-process API server with an HTTP port per test class or test,
 * manifests, a controllable clock, and AssertJ assertions on managed fields, conflicts and
 * watch events.
 *
 * <p>Clients to inject come from the {@link io.apiserver4j.junit.ClientFactory} service: modules
 * that provide it ({@code io.apiserver4j.junit.fabric8}, {@code io.apiserver4j.junit.clientjava})
 * and {@code META-INF/services} entries on the class path. JUnit instantiates the extension
 * reflectively, so its package is open to JUnit (not exported). A test class on the module path
 * whose fields are injected must open its package to this module.
 */
module io.apiserver4j.junit {
  requires transitive io.apiserver4j.core;
  requires transitive io.apiserver4j.fieldpath;
  requires transitive io.apiserver4j.apiserver;
  requires transitive io.apiserver4j.http;
  requires transitive org.junit.jupiter.api;
  requires transitive org.assertj.core;
  requires io.apiserver4j.apimachinery;
  requires io.apiserver4j.cluster;
  requires io.apiserver4j.controllers;
  requires io.apiserver4j.dryrun;
  requires io.apiserver4j.storage;
  requires io.apiserver4j.validate;
  requires org.junit.platform.commons;
  requires static org.junit.platform.launcher;
  requires org.slf4j;

  exports io.apiserver4j.junit;

  opens io.apiserver4j.junit.internal to org.junit.platform.commons;

  uses io.apiserver4j.junit.ClientFactory;

  provides org.junit.platform.launcher.LauncherSessionListener
      with io.apiserver4j.junit.internal.SessionPreparation;
}
