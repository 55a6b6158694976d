/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionPlugin;
import java.util.Optional;
import java.util.function.Function;

/**
 * One entry of kube-apiserver's ordered admission plugin list ({@code AllOrderedPlugins}) as the
 * built-in API provides it: its name, whether kube-apiserver 1.36 enables it by default, and how
 * to make it. An entry without a factory is a slot the server fills itself (the policy and webhook
 * stages) or the embedder fills ({@link io.apiserver4j.apiserver.ApiServer.Builder#admissionPlugin}, e.g. PodSecurity).
 *
 * @param name the plugin name, as kube-apiserver's {@code --enable-admission-plugins} spells it
 * @param enabledByDefault whether kube-apiserver 1.36 runs it unless disabled
 * @param factory makes the plugin for a server, when this registry implements it
 */
public record BuiltinAdmissionPlugin(String name, boolean enabledByDefault,
    Optional<Function<AdmissionPluginContext, AdmissionPlugin>> factory) {

  /**
   * Checks that no component is null.
   *
   * @param name see the record component
   * @param enabledByDefault see the record component
   * @param factory see the record component
   */
  public BuiltinAdmissionPlugin {
    requireNonNull(name, "name");
    requireNonNull(factory, "factory");
  }

  /**
   * An implemented plugin.
   *
   * @param name the plugin name
   * @param enabledByDefault whether it is on by default
   * @param factory makes it
   * @return the entry
   */
  public static BuiltinAdmissionPlugin of(String name, boolean enabledByDefault,
      Function<AdmissionPluginContext, AdmissionPlugin> factory) {
    return new BuiltinAdmissionPlugin(name, enabledByDefault,
        Optional.of(requireNonNull(factory, "factory")));
  }

  /**
   * A slot in the order whose implementation comes from elsewhere.
   *
   * @param name the plugin name
   * @param enabledByDefault whether it is on by default once implemented
   * @return the entry
   */
  public static BuiltinAdmissionPlugin slot(String name, boolean enabledByDefault) {
    return new BuiltinAdmissionPlugin(name, enabledByDefault, Optional.empty());
  }
}
