/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One configured Node as the kubelets read it (the public {@code NodeConfig} turned into plain
 * values, so the kubelet package does not depend on the API package that starts it).
 *
 * @param name the Node's name
 * @param labels the configured labels
 * @param zone the zone, if any
 * @param capacity capacity and allocatable, as quantities
 * @param taints each taint's key, value and effect
 */
public record NodeSpec(String name, Map<String, String> labels, Optional<String> zone,
    Map<String, String> capacity, List<Taint> taints) {
  /** A taint: key, value (may be empty), effect. */
  public record Taint(String key, String value, String effect) {}

  /** Copies the collections. */
  public NodeSpec {
    labels = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(labels));
    capacity = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(capacity));
    taints = List.copyOf(taints);
  }
}
