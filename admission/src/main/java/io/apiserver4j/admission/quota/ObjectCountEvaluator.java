/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * kube's {@code generic.objectCountEvaluator}: every object of the resource counts one against
 * {@code count/<resource>[.<group>]} and, for the resources quota counted before that form, its
 * legacy name ({@code configmaps}, {@code secrets}, ...). Charged on create only; no scopes.
 */
final class ObjectCountEvaluator implements QuotaEvaluator {
  private final GroupResource resource;
  private final List<String> names;

  ObjectCountEvaluator(GroupResource resource, String alias) {
    this.resource = resource;
    List<String> n = new ArrayList<>();
    n.add(QuotaEvaluators.objectCountName(resource));
    if (!alias.isEmpty()) {
      n.add(alias);
    }
    this.names = List.copyOf(n);
  }

  @Override
  public GroupResource groupResource() {
    return resource;
  }

  @Override
  public boolean handles(Operation operation, String subresource) {
    return subresource.isEmpty() && operation == Operation.CREATE;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    return input.stream().filter(names::contains).toList();
  }

  @Override
  public boolean matchesScope(ScopeRequirement requirement, MapValue object) {
    return false;
  }

  @Override
  public SortedMap<String, Quantity> usage(MapValue object) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    names.forEach(n -> out.put(n, ResourceLists.of(1)));
    return out;
  }
}
