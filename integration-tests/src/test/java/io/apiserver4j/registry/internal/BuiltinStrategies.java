/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.GroupVersionKind;
import java.util.Map;
import java.util.stream.Collectors;
import io.apiserver4j.apiserver.BuiltinResources;

/** The strategies the server really runs for built-in kinds, by kind (for table tests). */
final class BuiltinStrategies {
  private BuiltinStrategies() {}

  static Map<GroupVersionKind, ResourceStrategy> byKind() {
    return BuiltinResources.definitions().stream().collect(Collectors.toMap(
        ResourceDefinition::kind, ResourceDefinition::strategy, (a, b) -> a));
  }
}
