/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.event;

import io.apiserver4j.apiserver.ResourceStrategy;

/**
 * core/v1 Event (kube's pkg/registry/core/event): created on update (recorders write events
 * with PUT), and the involved object, reason, source and type are selectable fields.
 */
public final class EventStrategy {
  private EventStrategy() {}

  /** The core/v1 Event strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .allowCreateOnUpdate(true)
        .selectableFields("involvedObject.kind", "involvedObject.namespace",
            "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
            "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
            "reportingComponent", "source", "type")
        .build();
  }
}
