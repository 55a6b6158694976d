/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.events;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.events.event.EventPrinter;
import io.apiserver4j.registry.events.event.EventStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code events} API group with their registry behaviour (kube's pkg/registry/events). */
public final class EventsGroup {
  private EventsGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("events.k8s.io", "v1", "Event"),
            EventStrategy.strategy(), EventPrinter::printer));
  }
}
