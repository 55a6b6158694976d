/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.node;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * core/v1 Node (kube's pkg/registry/core/node): {@code SetDefaults_NodeStatus} with the v1
 * conversion of the pod CIDRs, and {@code ValidateNode}/{@code ValidateNodeUpdate} (pod CIDRs,
 * taints, what an update may not change), with kube's field paths and messages.
 */
public final class NodeStrategy {
  private static final List<String> TAINT_EFFECTS =
      List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  private NodeStrategy() {}

  /** The Node strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(NodeStrategy::defaults)
        .validator(NodeStrategy::validate)
        .subresourceConnect("proxy", io.apiserver4j.registry.internal.ProxyConnect.nodes())
        .build();
  }

  /**
   * kube's {@code SetDefaults_NodeStatus} (allocatable defaults to capacity) and the v1
   * conversion that keeps {@code podCIDR} and {@code podCIDRs[0]} the same.
   */
  static MapValue defaults(MapValue o) {
    MapValue r = o;
    Value capacity = Nested.getOrNull(r, "status", "capacity");
    if (capacity instanceof MapValue && !present(r, "status", "allocatable")) {
      r = Nested.set(r, capacity, "status", "allocatable");
    }
    String cidr = str(r, "spec", "podCIDR");
    List<String> cidrs = strings(r, "spec", "podCIDRs");
    if (!cidr.isEmpty() && cidrs.isEmpty()) {
      r = Nested.set(r, GroupRules.stringList(cidr), "spec", "podCIDRs");
    } else if (cidr.isEmpty() && !cidrs.isEmpty()) {
      r = Nested.set(r, Value.of(cidrs.get(0)), "spec", "podCIDR");
    }
    return r;
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<String> cidrs = strings(o, "spec", "podCIDRs");
    boolean valid = true;
    for (int i = 0; i < cidrs.size(); i++) {
      valid &= GroupRules.validCidr(errs, "spec.podCIDRs[" + i + "]", cidrs.get(i));
    }
    if (valid && cidrs.size() > 1) {
      boolean dualStack = cidrs.size() == 2 && cidrs.get(0).contains(":") != cidrs.get(1)
          .contains(":");
      if (!dualStack) {
        errs.add(FieldError.invalid("spec.podCIDRs",
            Value.of("[" + String.join(" ", cidrs) + "]"),
            "may specify no more than one CIDR for each IP family"));
      }
    }
    List<MapValue> taints = maps(o, "spec", "taints");
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < taints.size(); i++) {
      MapValue t = taints.get(i);
      String at = "spec.taints[" + i + "]";
      String key = str(t, "key");
      GroupRules.qualifiedName(errs, at + ".key", key);
      String value = str(t, "value");
      List<String> valueMsgs = MetaValidation.labelValue(value);
      if (!valueMsgs.isEmpty()) {
        errs.add(FieldError.invalid(at + ".value", Value.of(value), String.join(";", valueMsgs)));
      }
      String effect = str(t, "effect");
      if (effect.isEmpty()) {
        errs.add(FieldError.required(at + ".effect", ""));
      } else if (!TAINT_EFFECTS.contains(effect)) {
        errs.add(FieldError.notSupported(at + ".effect", Value.of(effect), TAINT_EFFECTS));
      }
      if (!seen.add(effect + "\u0000" + key)) {
        errs.add(new FieldError(FieldError.Type.DUPLICATE, at, Optional.of(t),
            "taints must be unique by key and effect pair"));
      }
    }
    if (old.isPresent()) {
      List<String> was = strings(old.get(), "spec", "podCIDRs");
      boolean changed = was.size() > cidrs.size();
      for (int i = 0; !changed && i < was.size(); i++) {
        changed = !was.get(i).equals(cidrs.get(i));
      }
      if (!was.isEmpty() && changed) {
        errs.add(FieldError.forbidden("spec.podCIDRs",
            "node updates may not change podCIDR except from \"\" to valid"));
      }
      String provider = str(old.get(), "spec", "providerID");
      if (!provider.isEmpty() && !provider.equals(str(o, "spec", "providerID"))) {
        errs.add(FieldError.forbidden("spec.providerID",
            "node updates may not change providerID except from \"\" to valid"));
      }
    }
    return errs;
  }
}
