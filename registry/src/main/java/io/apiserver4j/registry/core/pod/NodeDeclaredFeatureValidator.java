/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * kube-apiserver's {@code NodeDeclaredFeatureValidator} plugin
 * ({@code plugin/pkg/admission/nodedeclaredfeatures}, on while its gate
 * {@code NodeDeclaredFeatures} is, beta and on by default in 1.36): an update of a Pod bound to a
 * node, through the Pod itself or {@code pods/resize}, that changes the Pod's generation is
 * checked against the features the node declares in {@code status.declaredFeatures}. Of the
 * features component-helpers 1.36 registers, two are inferred from an update: a change of the
 * pod-level {@code spec.resources} needs {@code InPlacePodLevelResourcesVerticalScaling}, a change
 * of a non-sidecar init container's resources needs {@code InPlacePodVerticalScalingInitContainers}.
 * A requirement the node does not declare is refused (403 {@code pod update requires features
 * <a, b> which are not available on node "<n>"}); so is a missing node ({@code node "<n>" not
 * found}). Side effects: none. Thread-safe.
 */
public final class NodeDeclaredFeatureValidator implements ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "NodeDeclaredFeatureValidator";
  static final String POD_LEVEL_RESIZE = "InPlacePodLevelResourcesVerticalScaling";
  static final String INIT_CONTAINER_RESIZE = "InPlacePodVerticalScalingInitContainers";
  /** The names of component-helpers 1.36's {@code AllFeatures}, sorted as its framework sorts. */
  static final List<String> REGISTERED = List.of("ExtendWebSocketsToKubelet", POD_LEVEL_RESIZE,
      INIT_CONTAINER_RESIZE, "RestartAllContainersOnContainerExits",
      "UserNamespacesHostNetworkSupport");

  private final AdmissionPluginContext server;

  /**
   * A plugin reading Nodes from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public NodeDeclaredFeatureValidator(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return a.operation() == Operation.UPDATE && a.resource().group().isEmpty()
        && a.resource().resource().equals("pods")
        && (a.subresource().isEmpty() || a.subresource().equals("resize"));
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pod = a.object().orElse(null);
    MapValue old = a.oldObject().orElse(null);
    if (pod == null || old == null) {
      return;
    }
    String nodeName = Nested.str(pod, "spec", "nodeName");
    if (nodeName.isEmpty() || Meta.generation(old) == Meta.generation(pod)) {
      return;
    }
    List<String> required = required(Nested.map(old, "spec"), Nested.map(pod, "spec"));
    if (required.isEmpty()) {
      return;
    }
    MapValue node = server.get(ObjectKey.clusterScoped("", "nodes", nodeName)).orElseThrow(
        () -> AdmissionErrors.forbidden(a, "node \"" + nodeName + "\" not found"));
    List<String> declared = declared(node);
    List<String> missing = new ArrayList<>();
    for (String r : required) {
      if (!declared.contains(r)) {
        missing.add(r);
      }
    }
    if (!missing.isEmpty()) {
      throw AdmissionErrors.forbidden(a, "pod update requires features "
          + String.join(", ", missing) + " which are not available on node \"" + nodeName + "\"");
    }
  }

  /** The registered features the update needs, in the registry's sorted order. */
  static List<String> required(MapValue oldSpec, MapValue newSpec) {
    List<String> out = new ArrayList<>();
    Value oldPodLevel = oldSpec.getOrNull("resources");
    Value newPodLevel = newSpec.getOrNull("resources");
    if ((oldPodLevel != null || newPodLevel != null)
        && !semanticResources(oldPodLevel).equals(semanticResources(newPodLevel))) {
      out.add(POD_LEVEL_RESIZE);
    }
    List<Value> oldInits = Nested.list(oldSpec, "initContainers");
    List<Value> newInits = Nested.list(newSpec, "initContainers");
    for (int i = 0; i < oldInits.size() && i < newInits.size(); i++) {
      Value c = oldInits.get(i);
      boolean sidecar = Nested.str(c, "restartPolicy").equals("Always");
      if (!sidecar && !Objects.equals(resources(c), resources(newInits.get(i)))) {
        out.add(INIT_CONTAINER_RESIZE);
        break;
      }
    }
    return out;
  }

  private static Value resources(Value container) {
    Value r = Nested.getOrNull(container, "resources");
    return r == null || r.isNull() ? MapValue.empty() : r;
  }

  /**
   * Resource requirements as kube's semantic equality compares them: quantities by value, an
   * absent list as an empty one.
   */
  private static Map<String, Object> semanticResources(Value resources) {
    Map<String, Object> out = new TreeMap<>();
    for (String list : List.of("requests", "limits")) {
      Map<String, BigDecimal> q = new TreeMap<>();
      MapValue m = Nested.mapOrNull(resources, list);
      if (m != null) {
        for (int i = 0; i < m.size(); i++) {
          BigDecimal v = Quantity.parse(KubeValidation.quantityString(m.valueAt(i)))
              .map(Quantity::value).orElse(BigDecimal.ZERO);
          q.put(m.keyAt(i), v.stripTrailingZeros());
        }
      }
      out.put(list, q);
    }
    Value claims = Nested.getOrNull(resources, "claims");
    out.put("claims", claims == null || Nested.list(resources, "claims").isEmpty() ? List.of()
        : claims);
    return out;
  }

  /**
   * The node's declared features that the registry knows, as component-helpers'
   * {@code TryMap} reads the (sorted) list: a merge walk that skips unknown names.
   */
  private static List<String> declared(MapValue node) {
    List<String> names = new ArrayList<>();
    for (Value v : Nested.list(node, "status", "declaredFeatures")) {
      if (v instanceof StringValue s) {
        names.add(s.value());
      }
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < names.size() && j < REGISTERED.size()) {
      int cmp = names.get(i).compareTo(REGISTERED.get(j));
      if (cmp == 0) {
        out.add(REGISTERED.get(j));
        i++;
        j++;
      } else if (cmp < 0) {
        i++;
      } else {
        j++;
      }
    }
    return out;
  }
}
