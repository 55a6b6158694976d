/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code PodTopologyLabels} plugin ({@code plugin/pkg/admission/podtopologylabels},
 * on by default since its gate {@code PodTopologyLabelsAdmission} went beta in 1.35): on the
 * creation of a {@code pods/binding} whose target kind is {@code Node}, and of a Pod that already
 * names its {@code spec.nodeName}, the node's {@code topology.kubernetes.io/zone} and
 * {@code topology.kubernetes.io/region} labels are copied onto the Binding (the binding storage
 * then copies them onto the Pod) or the Pod, overwriting a value already there. A missing node
 * changes nothing. Side effects: none. Thread-safe.
 */
public final class PodTopologyLabels implements MutatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PodTopologyLabels";
  /** The labels kube-apiserver's default configuration copies. */
  static final List<String> LABELS = List.of("topology.kubernetes.io/zone",
      "topology.kubernetes.io/region");

  private final AdmissionPluginContext server;

  /**
   * A plugin reading Nodes from {@code server}.
   *
   * @param server the server the plugin runs in
   */
  public PodTopologyLabels(AdmissionPluginContext server) {
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
    return a.operation() == Operation.CREATE && a.resource().group().isEmpty()
        && a.resource().resource().equals("pods")
        && (a.subresource().isEmpty() || a.subresource().equals("binding"));
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue object) {
    String node;
    if (a.subresource().equals("binding")) {
      // the scheduler sets only the target's kind and name
      if (!Nested.str(object, "target", "kind").equals("Node")) {
        return object;
      }
      node = Nested.str(object, "target", "name");
    } else {
      node = Nested.str(object, "spec", "nodeName");
      if (node.isEmpty()) {
        return object;
      }
    }
    return copyTopology(object, node);
  }

  private MapValue copyTopology(MapValue object, String nodeName) {
    if (nodeName.isEmpty()) {
      return object;
    }
    // kube ignores a node that is not found, so as not to break clients binding to it
    MapValue node = server.get(ObjectKey.clusterScoped("", "nodes", nodeName)).orElse(null);
    if (node == null) {
      return object;
    }
    MapValue labels = Nested.mapOrNull(object, "metadata", "labels");
    MapValue merged = labels == null ? MapValue.empty() : labels;
    boolean copied = false;
    for (Map.Entry<String, String> e : Meta.labels(node).entrySet()) {
      if (LABELS.contains(e.getKey())) {
        merged = merged.with(e.getKey(), Value.of(e.getValue()));
        copied = true;
      }
    }
    if (!copied) {
      return object;
    }
    MapValue out = Meta.withMeta(object, "labels", merged);
    return out.equals(object) ? object : out;
  }
}
