/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

/**
 * An admission plugin: a named step of the {@link AdmissionChain}. Implement
 * {@link MutatingPlugin}, {@link ValidatingPlugin} or both.
 *
 * <p>Contract, checked by the chain at run time where it can be: plugins are thread-safe,
 * deny by throwing a {@link io.apiserver4j.core.errors.StatusException} with an error code (4xx/5xx),
 * and declare their {@link #sideEffects()} truthfully. A plugin that declares
 * {@link SideEffects#NONE_ON_DRY_RUN} must do nothing outside the request when
 * {@link AdmissionAttributes#isDryRun()} is true.
 */
public interface AdmissionPlugin {

  /**
   * The plugin's name, unique within a chain; used in errors.
   *
   * @return e.g. {@code NamespaceLifecycle}
   */
  String name();

  /**
   * What the plugin does outside the request; decides whether it may see dry-run requests.
   *
   * @return the side-effect class
   */
  SideEffects sideEffects();

  /**
   * Whether this plugin wants to see the request at all. A plugin that does not handle a request
   * is skipped, and its side-effect class is then irrelevant to a dry run.
   *
   * @param attributes the request
   * @return true (the default) when the plugin handles the request
   */
  default boolean handles(AdmissionAttributes attributes) {
    return true;
  }
}
