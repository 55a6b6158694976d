/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * kube's {@code serviceEvaluator} ({@code pkg/quota/v1/evaluator/core/services.go}):
 * {@code services} and {@code count/services} one each, {@code services.loadbalancers} one for a
 * LoadBalancer, {@code services.nodeports} the number of ports of a NodePort or LoadBalancer
 * Service (of a LoadBalancer with {@code allocateLoadBalancerNodePorts: false}, only the ports
 * naming a node port). Charged on create and update, since the type can change.
 */
final class ServiceEvaluator implements QuotaEvaluator {
  static final GroupResource SERVICES = new GroupResource("", "services");
  private static final List<String> RESOURCES = List.of("count/services", "services",
      "services.nodeports", "services.loadbalancers");

  @Override
  public GroupResource groupResource() {
    return SERVICES;
  }

  @Override
  public boolean handles(Operation operation, String subresource) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    return input.stream().filter(RESOURCES::contains).toList();
  }

  @Override
  public boolean matchesScope(ScopeRequirement requirement, MapValue object) {
    return false;
  }

  @Override
  public SortedMap<String, Quantity> usage(MapValue svc) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    int ports = Nested.list(svc, "spec", "ports").size();
    out.put("count/services", ResourceLists.of(1));
    out.put("services", ResourceLists.of(1));
    out.put("services.loadbalancers", ResourceLists.zero());
    out.put("services.nodeports", ResourceLists.zero());
    switch (Nested.str(svc, "spec", "type")) {
      case "NodePort" -> out.put("services.nodeports", ResourceLists.of(ports));
      case "LoadBalancer" -> {
        Value allocate = Nested.getOrNull(svc, "spec", "allocateLoadBalancerNodePorts");
        if (allocate instanceof BooleanValue b && !b.value()) {
          long withNodePort = Nested.list(svc, "spec", "ports").stream()
              .filter(p -> Nested.has(p, "nodePort") && Nested.integer(p, "nodePort") != 0)
              .count();
          out.put("services.nodeports", ResourceLists.of(withNodePort));
        } else {
          out.put("services.nodeports", ResourceLists.of(ports));
        }
        out.put("services.loadbalancers", ResourceLists.of(1));
      }
      default -> { }
    }
    return out;
  }

  /** kube's {@code GetQuotaServiceType}: NodePort or LoadBalancer, else "". */
  static String quotaServiceType(MapValue svc) {
    String type = Nested.str(svc, "spec", "type");
    return type.equals("NodePort") || type.equals("LoadBalancer") ? type : "";
  }
}
