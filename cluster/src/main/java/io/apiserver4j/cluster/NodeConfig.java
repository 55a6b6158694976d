/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One simulated Node: its name, extra labels, zone (label {@code topology.kubernetes.io/zone}),
 * capacity (also its allocatable) and the taints it registers with. Kubelet's own labels
 * ({@code kubernetes.io/hostname}, {@code kubernetes.io/os}, {@code kubernetes.io/arch} and their
 * {@code beta.} forms) are always added. Immutable; built with {@link #builder(String)}.
 */
public final class NodeConfig {
  /** The capacity of a Node whose builder sets none: 4 CPUs, 16Gi memory, 110 Pods. */
  public static final Map<String, String> DEFAULT_CAPACITY = defaults();

  private final String name;
  private final Map<String, String> labels;
  private final Optional<String> zone;
  private final Map<String, String> capacity;
  private final List<NodeTaint> taints;

  private NodeConfig(Builder b) {
    this.name = b.name;
    this.labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.labels));
    this.zone = b.zone;
    Map<String, String> c = new LinkedHashMap<>(DEFAULT_CAPACITY);
    c.putAll(b.capacity);
    this.capacity = java.util.Collections.unmodifiableMap(c);
    this.taints = List.copyOf(b.taints);
  }

  private static Map<String, String> defaults() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cpu", "4");
    m.put("ephemeral-storage", "100Gi");
    m.put("memory", "16Gi");
    m.put("pods", "110");
    return java.util.Collections.unmodifiableMap(m);
  }

  /** A builder of the Node named {@code name} (a DNS subdomain, as kube requires). */
  public static Builder builder(String name) {
    requireNonNull(name, "name");
    if (!name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
        || name.length() > 253) {
      throw new IllegalArgumentException("node name \"" + name
          + "\" is not a lowercase RFC 1123 subdomain");
    }
    return new Builder(name);
  }

  /** {@code count} default Nodes named {@code node-1} .. {@code node-<count>}. */
  public static List<NodeConfig> defaults(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("node count " + count + " is negative");
    }
    List<NodeConfig> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(builder("node-" + i).build());
    }
    return List.copyOf(out);
  }

  /** The Node's name. */
  public String name() {
    return name;
  }

  /** The labels given to the builder (kubelet's own labels and the zone not included). */
  public Map<String, String> labels() {
    return labels;
  }

  /** The zone, if one was given. */
  public Optional<String> zone() {
    return zone;
  }

  /** Capacity (and allocatable) by resource name, as quantities. */
  public Map<String, String> capacity() {
    return capacity;
  }

  /** The taints the Node registers with. */
  public List<NodeTaint> taints() {
    return taints;
  }

  @Override
  public String toString() {
    return "NodeConfig[" + name + "]";
  }

  /** Configures one Node. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private Optional<String> zone = Optional.empty();
    private final Map<String, String> capacity = new LinkedHashMap<>();
    private final List<NodeTaint> taints = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** Adds the label {@code key=value}. */
    public Builder label(String key, String value) {
      labels.put(requireNonNull(key, "key"), requireNonNull(value, "value"));
      return this;
    }

    /**
     * The zone: label {@code topology.kubernetes.io/zone} (its deprecated
     * {@code failure-domain.beta} twin is not set, as kubelet no longer sets it).
     */
    public Builder zone(String z) {
      this.zone = Optional.of(requireNonNull(z, "zone"));
      return this;
    }

    /**
     * Sets the capacity of {@code resource} (e.g. {@code cpu}, {@code memory}, {@code pods},
     * an extended resource) to the quantity {@code quantity}.
     *
     * @throws IllegalArgumentException if {@code quantity} is not a quantity
     */
    public Builder capacity(String resource, String quantity) {
      requireNonNull(resource, "resource");
      requireNonNull(quantity, "quantity");
      if (io.apiserver4j.apimachinery.validation.GroupRules.Quantity.parse(quantity).isEmpty()) {
        throw new IllegalArgumentException("capacity of " + resource + ": \"" + quantity
            + "\" is not a quantity");
      }
      capacity.put(resource, quantity);
      return this;
    }

    /** Adds a taint. */
    public Builder taint(NodeTaint taint) {
      taints.add(requireNonNull(taint, "taint"));
      return this;
    }

    /** Adds the taint {@code key=value:effect}. */
    public Builder taint(String key, String value, String effect) {
      return taint(new NodeTaint(key, value, effect));
    }

    /** The Node configuration. */
    public NodeConfig build() {
      return new NodeConfig(this);
    }
  }
}
