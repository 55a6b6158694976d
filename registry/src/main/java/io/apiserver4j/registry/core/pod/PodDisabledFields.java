/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.FeatureGates;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * kube's {@code dropDisabledPodFields} ({@code pkg/api/pod/util.go}) for the Pod spec fields of
 * gates that differ between the emulated releases or can be turned off in 1.36: each field is
 * cleared while its gate is off, unless the stored Pod already uses it.
 *
 * <ul>
 *   <li>{@code PodLevelResources}: {@code spec.resources} (kept when the old spec has requests
 *       or limits);
 *   <li>{@code DynamicResourceAllocation}: {@code spec.resourceClaims} and every container's
 *       {@code resources.claims} (kept when the old spec has resource claims);
 *   <li>{@code ContainerRestartRules}: the containers' {@code restartPolicy} (an init
 *       container's only when it is not {@code Always}, the sidecar form) and
 *       {@code restartPolicyRules};
 *   <li>{@code EnvFiles}: every env var's {@code valueFrom.fileKeyRef};
 *   <li>{@code HostnameOverride}: {@code spec.hostnameOverride}.
 * </ul>
 *
 * <p>Stateless.
 */
public final class PodDisabledFields {
  private static final String[] CONTAINER_LISTS =
      {"initContainers", "containers", "ephemeralContainers"};

  private PodDisabledFields() {}

  /**
   * Drops the disabled fields of a Pod.
   *
   * @param pod the Pod about to be stored
   * @param old the stored Pod on updates
   * @param gates the server's feature gates
   * @return the Pod without the fields of disabled gates that {@code old} does not use
   */
  public static MapValue drop(MapValue pod, Optional<MapValue> old, FeatureGates gates) {
    MapValue oldSpec = old.map(o -> Nested.mapOrNull(o, "spec")).orElse(null);
    return Nested.updateMap(pod, spec -> dropFromSpec(spec, oldSpec, gates), "spec");
  }

  /**
   * Drops the disabled fields of a pod spec, as kube's {@code dropDisabledFields} on a
   * {@code PodSpec} (Pods and pod templates alike).
   *
   * @param spec the spec about to be stored
   * @param oldSpec the stored spec, or {@code null} on creates
   * @param gates the server's feature gates
   * @return the spec without the fields of disabled gates that {@code oldSpec} does not use
   */
  public static MapValue dropFromSpec(MapValue spec, MapValue oldSpec, FeatureGates gates) {
    MapValue r = spec;
    if (!gates.enabled("PodLevelResources") && !podLevelResourcesInUse(oldSpec)) {
      r = r.without("resources");
    }
    if (!gates.enabled("DynamicResourceAllocation")
        && !(oldSpec != null && !Nested.list(oldSpec, "resourceClaims").isEmpty())) {
      r = eachContainer(r, c -> Nested.remove(c, "resources", "claims"));
      r = r.without("resourceClaims");
    }
    if (!gates.enabled("ContainerRestartRules") && !containerRestartRulesInUse(oldSpec)) {
      r = Nested.updateListItems(r, c -> {
        MapValue out = c.without("restartPolicyRules");
        return Nested.str(c, "restartPolicy").equals("Always") ? out
            : out.without("restartPolicy");
      }, "initContainers");
      for (String list : List.of("containers", "ephemeralContainers")) {
        r = Nested.updateListItems(r, c -> c.without("restartPolicy")
            .without("restartPolicyRules"), list);
      }
    }
    if (!gates.enabled("EnvFiles") && !anyContainer(oldSpec, PodDisabledFields::usesFileKeyRef)) {
      r = eachContainer(r, c -> Nested.updateListItems(c,
          env -> Nested.remove(env, "valueFrom", "fileKeyRef"), "env"));
    }
    if (!gates.enabled("HostnameOverride")
        && !(oldSpec != null && oldSpec.containsKey("hostnameOverride"))) {
      r = r.without("hostnameOverride");
    }
    return r;
  }

  private static boolean podLevelResourcesInUse(MapValue oldSpec) {
    return oldSpec != null && (!Nested.map(oldSpec, "resources", "requests").isEmpty()
        || !Nested.map(oldSpec, "resources", "limits").isEmpty());
  }

  // kube's containerRestartRulesInUse: a non-sidecar init container policy or rules, or a
  // regular container's policy
  private static boolean containerRestartRulesInUse(MapValue oldSpec) {
    if (oldSpec == null) {
      return false;
    }
    for (Value v : Nested.list(oldSpec, "initContainers")) {
      if (v instanceof MapValue c && ((c.getOrNull("restartPolicy") instanceof StringValue p
          && !p.value().equals("Always")) || !Nested.list(c, "restartPolicyRules").isEmpty())) {
        return true;
      }
    }
    for (Value v : Nested.list(oldSpec, "containers")) {
      if (v instanceof MapValue c && c.containsKey("restartPolicy")) {
        return true;
      }
    }
    return false;
  }

  private static boolean usesFileKeyRef(MapValue container) {
    for (Value env : Nested.list(container, "env")) {
      if (Nested.getOrNull(env, "valueFrom", "fileKeyRef") instanceof MapValue) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyContainer(MapValue spec, Predicate<MapValue> test) {
    if (spec == null) {
      return false;
    }
    for (String list : CONTAINER_LISTS) {
      if (spec.getOrNull(list) instanceof ListValue l) {
        for (Value c : l.items()) {
          if (c instanceof MapValue m && test.test(m)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static MapValue eachContainer(MapValue spec, UnaryOperator<MapValue> f) {
    MapValue r = spec;
    for (String list : CONTAINER_LISTS) {
      r = Nested.updateListItems(r, f, list);
    }
    return r;
  }
}
