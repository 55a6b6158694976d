/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A policy context over a list of ConfigMap parameter objects and a map of namespaces.
 */
class TestContext implements PolicyContext {
  private final List<MapValue> configMaps;
  private final Map<String, MapValue> namespaces;

  TestContext(List<MapValue> configMaps) {
    this(configMaps, Map.of());
  }

  TestContext(List<MapValue> configMaps, Map<String, MapValue> namespaces) {
    this.configMaps = configMaps;
    this.namespaces = namespaces;
  }

  @Override
  public NamespaceLookup namespaces() {
    return name -> Optional.ofNullable(namespaces.get(name));
  }

  @Override
  public Optional<ParamSource> params(String apiVersion, String kind) {
    if (!apiVersion.equals("v1") || !kind.equals("ConfigMap")) {
      return Optional.empty();
    }
    return Optional.of(new ParamSource() {
      @Override
      public boolean namespaced() {
        return true;
      }

      @Override
      public Optional<MapValue> get(String namespace, String name) {
        return configMaps.stream()
            .filter(c -> Meta.metaString(c, "namespace").equals(namespace)
                && Meta.metaString(c, "name").equals(name))
            .findFirst();
      }

      @Override
      public List<MapValue> list(String namespace, MapValue labelSelector) {
        Map<String, String> wanted = labelSelector.getOrNull("matchLabels") instanceof MapValue m
            ? Meta.labels(MapValue.ofEntries("metadata", MapValue.ofEntries("labels", m)))
            : Map.of();
        return configMaps.stream()
            .filter(c -> Meta.metaString(c, "namespace").equals(namespace))
            .filter(c -> Meta.labels(c).entrySet().containsAll(wanted.entrySet()))
            .toList();
      }
    });
  }
}
