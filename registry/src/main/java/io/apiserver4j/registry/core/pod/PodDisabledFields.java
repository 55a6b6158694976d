/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.strategy.DisabledFields;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.FeatureGates;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * kube's {@code DropDisabledPodFields} and {@code DropDisabledTemplateFields}
 * ({@code pkg/api/pod/util.go}) for the pod spec fields of gates that differ between the emulated
 * releases or can be turned off in 1.36: each field is cleared while its gate is off, unless the
 * stored object already uses it. Pods use {@link #drop}; every kind that embeds a pod template
 * declares {@link #inTemplate} with the template's path, so the same drops reach Deployments,
 * ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, ReplicationControllers and PodTemplates.
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
 *   <li>{@code HostnameOverride}: {@code spec.hostnameOverride};
 *   <li>{@code InPlacePodVerticalScaling}: every container's {@code resizePolicy} (kept when an
 *       old regular or init container has one);
 *   <li>{@code MatchLabelKeysInPodTopologySpread}: every topology spread constraint's
 *       {@code matchLabelKeys} (kept when an old constraint has some).
 * </ul>
 *
 * <p>The status of a Pod written through its status endpoint loses, as kube's
 * {@code dropDisabledPodStatusFields} ({@link #dropFromStatus}):
 *
 * <ul>
 *   <li>{@code InPlacePodLevelResourcesVerticalScaling}: {@code status.resources} and
 *       {@code status.allocatedResources} (kept when the old status has either);
 *   <li>{@code InPlacePodVerticalScaling}: every container status' {@code resources} and
 *       {@code allocatedResources} (kept when the old spec has a resize policy);
 *   <li>{@code DynamicResourceAllocation}: {@code status.resourceClaimStatuses} (kept when the
 *       old spec has resource claims);
 *   <li>{@code DRAExtendedResource}: {@code status.extendedResourceClaimStatus} (kept when the
 *       old status has it).
 * </ul>
 *
 * <p>Stateless.
 */
public final class PodDisabledFields {
  private static final String[] CONTAINER_LISTS =
      {"initContainers", "containers", "ephemeralContainers"};
  private static final String[] CONTAINER_STATUS_LISTS =
      {"initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"};

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
   * kube's {@code DropDisabledTemplateFields} for a kind whose pod template sits at
   * {@code templatePath} (for a Deployment {@code spec, template}; for a CronJob
   * {@code spec, jobTemplate, spec, template}; for a PodTemplate {@code template}): the
   * template's spec loses what {@link #dropFromSpec} drops, judged against the stored object's
   * template (none on creates, or when the stored object has no template).
   *
   * @param templatePath the path of the pod template in the kind's objects, at least one name
   * @return the kind's {@code dropDisabledFields} hook
   * @throws IllegalArgumentException when the path is empty
   */
  public static DisabledFields inTemplate(String... templatePath) {
    if (templatePath.length == 0) {
      throw new IllegalArgumentException("templatePath is empty");
    }
    String[] specPath = Arrays.copyOf(templatePath, templatePath.length + 1);
    specPath[templatePath.length] = "spec";
    for (String name : specPath) {
      requireNonNull(name, "templatePath element");
    }
    return (object, old, gates) -> {
      MapValue oldSpec = old.map(o -> Nested.mapOrNull(o, specPath)).orElse(null);
      return Nested.updateMap(object, spec -> dropFromSpec(spec, oldSpec, gates), specPath);
    };
  }

  /**
   * kube's {@code dropDisabledPodStatusFields} for an update through a Pod's status endpoint.
   *
   * @param pod the Pod about to be stored (its spec is the stored one)
   * @param old the stored Pod
   * @param gates the server's feature gates
   * @return the Pod without the status fields of disabled gates that {@code old} does not use
   */
  public static MapValue dropFromStatus(MapValue pod, MapValue old, FeatureGates gates) {
    MapValue oldSpec = Nested.mapOrNull(old, "spec");
    MapValue oldStatus = Nested.mapOrNull(old, "status");
    return Nested.updateMap(pod, status -> {
      MapValue r = status;
      if (!gates.enabled("InPlacePodLevelResourcesVerticalScaling")
          && !(oldStatus != null && (oldStatus.containsKey("resources")
              || oldStatus.containsKey("allocatedResources")))) {
        r = r.without("resources").without("allocatedResources");
      }
      if (!gates.enabled("InPlacePodVerticalScaling") && !resizePolicyInUse(oldSpec)) {
        for (String list : CONTAINER_STATUS_LISTS) {
          r = Nested.updateListItems(r, c -> c.without("resources").without("allocatedResources"),
              list);
        }
      }
      if (!gates.enabled("DynamicResourceAllocation") && !resourceClaimsInUse(oldSpec)) {
        r = r.without("resourceClaimStatuses");
      }
      if (!gates.enabled("DRAExtendedResource")
          && !(oldStatus != null && oldStatus.containsKey("extendedResourceClaimStatus"))) {
        r = r.without("extendedResourceClaimStatus");
      }
      return r;
    }, "status");
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
    if (!gates.enabled("DynamicResourceAllocation") && !resourceClaimsInUse(oldSpec)) {
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
    if (!gates.enabled("InPlacePodVerticalScaling") && !resizePolicyInUse(oldSpec)) {
      r = eachContainer(r, c -> c.without("resizePolicy"));
    }
    if (!gates.enabled("MatchLabelKeysInPodTopologySpread")
        && !matchLabelKeysInTopologySpreadInUse(oldSpec)) {
      r = Nested.updateListItems(r, c -> c.without("matchLabelKeys"),
          "topologySpreadConstraints");
    }
    return r;
  }

  // kube's dynamicResourceAllocationInUse: container claims need a pod-level claim, so the
  // pod-level list alone tells
  private static boolean resourceClaimsInUse(MapValue oldSpec) {
    return oldSpec != null && !Nested.list(oldSpec, "resourceClaims").isEmpty();
  }

  // kube's inPlacePodVerticalScalingInUse looks at regular and init containers only
  private static boolean resizePolicyInUse(MapValue oldSpec) {
    if (oldSpec == null) {
      return false;
    }
    for (String list : List.of("containers", "initContainers")) {
      for (Value v : Nested.list(oldSpec, list)) {
        if (v instanceof MapValue c && !Nested.list(c, "resizePolicy").isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean matchLabelKeysInTopologySpreadInUse(MapValue oldSpec) {
    if (oldSpec == null) {
      return false;
    }
    for (Value v : Nested.list(oldSpec, "topologySpreadConstraints")) {
      if (v instanceof MapValue c && !Nested.list(c, "matchLabelKeys").isEmpty()) {
        return true;
      }
    }
    return false;
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
