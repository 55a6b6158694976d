/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A controller kube-controller-manager knows (cmd/kube-controller-manager's descriptors): its
 * canonical name, the aliases {@code --controllers} also accepts, whether {@code *} includes it,
 * and how this project builds it (empty when it does not implement it yet).
 */
public record ControllerDescriptor(String name, List<String> aliases, boolean enabledByDefault,
    Optional<Function<ControllerContext, Controller>> factory) {
  public ControllerDescriptor {
    aliases = List.copyOf(aliases);
  }

  /** Whether {@code value} names this controller (its name or an alias). */
  public boolean named(String value) {
    return name.equals(value) || aliases.contains(value);
  }

  /** Its canonical name, then its aliases. */
  public List<String> namesAndAliases() {
    java.util.List<String> out = new java.util.ArrayList<>();
    out.add(name);
    out.addAll(aliases);
    return out;
  }
}
