/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.FeatureGates;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of kube's {@code PodValidationOptions} that differs between the emulated releases,
 * as {@code GetValidationOptionsFromPodSpecAndMeta} ({@code pkg/api/pod/util.go}) computes it
 * from the feature gates and the stored spec: a rule a gate relaxes is relaxed while the gate is
 * on, or while the stored object already relies on it (so turning a gate off never makes a
 * stored object invalid).
 *
 * @param relaxedEnvVarNames environment variable names (and {@code envFrom} prefixes) may be any
 *     printable ASCII but {@code =} ({@code RelaxedEnvironmentVariableValidation}); otherwise
 *     they are C identifiers with {@code -} and {@code .}
 * @param relaxedDnsSearch DNS search domains may be {@code .} and contain {@code _}
 *     ({@code RelaxedDNSSearchValidation}); otherwise they are DNS-1123 subdomains
 */
public record PodValidationOptions(boolean relaxedEnvVarNames, boolean relaxedDnsSearch) {
  /** Every rule relaxed: what 1.36 does, where both gates are GA and locked on. */
  public static final PodValidationOptions RELAXED = new PodValidationOptions(true, true);

  /**
   * kube's options for a pod spec.
   *
   * @param gates the server's feature gates
   * @param spec the spec being validated; {@code null} as empty
   * @param oldSpec the stored spec on updates, else {@code null}
   * @return the options
   */
  public static PodValidationOptions of(FeatureGates gates, MapValue spec, MapValue oldSpec) {
    requireNonNull(gates, "gates");
    return new PodValidationOptions(
        gates.enabled("RelaxedEnvironmentVariableValidation")
            || relaxedEnvVarNameInUse(spec, oldSpec),
        gates.enabled("RelaxedDNSSearchValidation") || relaxedDnsSearchInUse(oldSpec));
  }

  /**
   * kube's {@code GetValidationOptionsFromPodTemplate}: the options of the pod template at
   * {@code templatePath} of a kind's object.
   *
   * @param gates the server's feature gates
   * @param object the object being validated
   * @param old the stored object on updates
   * @param templatePath the template's path in the kind's objects
   * @return the options
   */
  public static PodValidationOptions ofTemplate(FeatureGates gates, MapValue object,
      java.util.Optional<MapValue> old, String... templatePath) {
    String[] spec = java.util.Arrays.copyOf(templatePath, templatePath.length + 1);
    spec[templatePath.length] = "spec";
    return of(gates, Nested.mapOrNull(object, spec),
        old.map(o -> Nested.mapOrNull(o, spec)).orElse(null));
  }

  // kube's useRelaxedEnvironmentVariableValidation: a name only the relaxed rule accepts that
  // the stored spec already has
  private static boolean relaxedEnvVarNameInUse(MapValue spec, MapValue oldSpec) {
    if (spec == null || oldSpec == null) {
      return false;
    }
    Set<String> old = envVarNames(oldSpec);
    for (String name : envVarNames(spec)) {
      if (old.contains(name) && !EnvValidation.strictEnvVarName(name).isEmpty()
          && EnvValidation.relaxedEnvVarName(name).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> envVarNames(MapValue spec) {
    Set<String> names = new HashSet<>();
    for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
      for (Value c : Nested.list(spec, list)) {
        for (Value env : Nested.list(c, "env")) {
          names.add(Nested.str(env, "name"));
        }
        for (Value from : Nested.list(c, "envFrom")) {
          names.add(Nested.str(from, "prefix"));
        }
      }
    }
    return names;
  }

  // kube's useRelaxedDNSSearchValidation: a stored search domain that is "." or has an "_"
  private static boolean relaxedDnsSearchInUse(MapValue oldSpec) {
    if (oldSpec == null) {
      return false;
    }
    for (Value search : Nested.list(oldSpec, "dnsConfig", "searches")) {
      String s = search instanceof io.apiserver4j.core.StringValue v ? v.value() : "";
      if (s.equals(".") || s.contains("_")) {
        return true;
      }
    }
    return false;
  }

  /** {@return the DNS-1123 subdomain messages of a search domain under the strict rule} */
  static List<String> strictSearch(String search) {
    return MetaValidation.dns1123Subdomain(search);
  }
}
