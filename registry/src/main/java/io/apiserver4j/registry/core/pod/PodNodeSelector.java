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
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.admission.AdmissionPluginContext;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.registry.internal.Admissions;
import io.apiserver4j.storage.ObjectKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-apiserver's {@code PodNodeSelector} plugin ({@code plugin/pkg/admission/podnodeselector},
 * off by default): a created Pod's {@code spec.nodeSelector} is merged with its namespace's node
 * selector, the {@code scheduler.alpha.kubernetes.io/node-selector} annotation ({@code k=v,...}),
 * or, when the namespace has none, the {@code clusterDefaultNodeSelector} of the plugin's
 * configuration ({@code podNodeSelectorPluginConfig} in the admission configuration file); the
 * Pod's own entries win. A Pod whose selector clashes with the namespace's is refused (403
 * {@code pod node label selector conflicts with its namespace node label selector}), and so is
 * one whose selector is not within its namespace's whitelist in the configuration (403 {@code pod
 * node label selector labels conflict with its namespace whitelist}). Side effects: none.
 * Thread-safe.
 */
public final class PodNodeSelector implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "PodNodeSelector";
  static final String ANNOTATION = "scheduler.alpha.kubernetes.io/node-selector";
  private static final GroupResource PODS = new GroupResource("", "pods");

  private final AdmissionPluginContext server;
  private final Map<String, String> clusterNodeSelectors;

  /**
   * A plugin reading Namespaces from {@code server} and its configuration from the server's
   * admission configuration file.
   *
   * @param server the server the plugin runs in
   */
  public PodNodeSelector(AdmissionPluginContext server) {
    this.server = requireNonNull(server, "server");
    Map<String, String> selectors = new LinkedHashMap<>();
    MapValue config = server.configuration(NAME)
        .map(c -> Nested.mapOrNull(c, "podNodeSelectorPluginConfig")).orElse(null);
    if (config != null) {
      for (int i = 0; i < config.size(); i++) {
        if (config.valueAt(i) instanceof StringValue s) {
          selectors.put(config.keyAt(i), s.value());
        }
      }
    }
    this.clusterNodeSelectors = Map.copyOf(selectors);
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
    return Admissions.isMain(a, "", "pods", Operation.CREATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    Map<String, String> namespaceSelector = namespaceSelector(a.namespace());
    Map<String, String> podSelector = selector(pod);
    if (conflicts(namespaceSelector, podSelector)) {
      throw conflict(pod);
    }
    Map<String, String> merged = new LinkedHashMap<>(namespaceSelector);
    merged.putAll(podSelector);
    MapValue out = merged.isEmpty() ? pod : Nested.set(pod, toValue(merged), "spec",
        "nodeSelector");
    checkWhitelist(a, out);
    return out.equals(pod) ? pod : out;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pod = a.object().orElse(null);
    if (pod == null) {
      return;
    }
    if (conflicts(namespaceSelector(a.namespace()), selector(pod))) {
      throw conflict(pod);
    }
    checkWhitelist(a, pod);
  }

  private void checkWhitelist(AdmissionAttributes a, MapValue pod) {
    Map<String, String> whitelist = parse(clusterNodeSelectors.getOrDefault(a.namespace(), ""));
    if (whitelist.isEmpty()) {
      return;
    }
    for (Map.Entry<String, String> e : selector(pod).entrySet()) {
      if (!e.getValue().equals(whitelist.get(e.getKey()))) {
        throw StatusErrors.forbidden(PODS, Meta.metaString(pod, "name"),
            "pod node label selector labels conflict with its namespace whitelist");
      }
    }
  }

  private static StatusException conflict(MapValue pod) {
    return StatusErrors.forbidden(PODS, Meta.metaString(pod, "name"),
        "pod node label selector conflicts with its namespace node label selector");
  }

  /** kube's {@code getNodeSelectorMap} of the request's namespace. */
  private Map<String, String> namespaceSelector(String namespace) {
    MapValue ns = server.get(ObjectKey.clusterScoped("", "namespaces", namespace)).orElseThrow(
        () -> StatusErrors.notFound(new GroupResource("", "namespaces"), namespace));
    String annotation = Meta.annotations(ns).get(ANNOTATION);
    if (annotation != null) {
      return parse(annotation);
    }
    return parse(clusterNodeSelectors.getOrDefault("clusterDefaultNodeSelector", ""));
  }

  private static Map<String, String> selector(MapValue pod) {
    Map<String, String> out = new LinkedHashMap<>();
    MapValue m = Nested.mapOrNull(pod, "spec", "nodeSelector");
    if (m != null) {
      for (int i = 0; i < m.size(); i++) {
        out.put(m.keyAt(i), m.valueAt(i) instanceof StringValue s ? s.value() : "");
      }
    }
    return out;
  }

  private static MapValue toValue(Map<String, String> m) {
    MapValue out = MapValue.empty();
    for (Map.Entry<String, String> e : m.entrySet()) {
      out = out.with(e.getKey(), Value.of(e.getValue()));
    }
    return out;
  }

  /** kube's {@code labels.Conflicts}: a key in both with different values. */
  private static boolean conflicts(Map<String, String> a, Map<String, String> b) {
    for (Map.Entry<String, String> e : a.entrySet()) {
      String other = b.get(e.getKey());
      if (other != null && !other.equals(e.getValue())) {
        return true;
      }
    }
    return false;
  }

  /**
   * kube's {@code labels.ConvertSelectorToLabelsMap}: {@code k=v} pairs separated by commas; a
   * malformed selector is the server's configuration error, an internal error as in kube.
   */
  static Map<String, String> parse(String selector) {
    Map<String, String> out = new LinkedHashMap<>();
    if (selector.isEmpty()) {
      return out;
    }
    for (String label : selector.split(",", -1)) {
      String[] kv = label.split("=", -1);
      if (kv.length != 2) {
        throw StatusErrors.internal("invalid selector: [" + String.join(" ", kv) + "]");
      }
      out.put(kv[0].trim(), kv[1].trim());
    }
    return out;
  }
}
