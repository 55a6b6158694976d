/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.events.event;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;

/**
 * The {@code kubectl get events.events.k8s.io} columns: kube prints these Events through the
 * internal core Event they convert to, so they are the core Event's columns and cells.
 */
public final class EventPrinter {
  private EventPrinter() {}

  /** The events.k8s.io/v1 Event's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(Cells.eventColumns(), (o, now) -> Cells.eventCells(asCoreEvent(o),
        now));
  }

  private static MapValue asCoreEvent(MapValue o) {
    String[][] renames = {{"regarding", "involvedObject"}, {"note", "message"},
        {"deprecatedSource", "source"}, {"deprecatedFirstTimestamp", "firstTimestamp"},
        {"deprecatedLastTimestamp", "lastTimestamp"}, {"deprecatedCount", "count"},
        {"reportingController", "reportingComponent"}};
    MapValue r = o;
    for (String[] rename : renames) {
      Value v = o.getOrNull(rename[0]);
      if (v != null) {
        r = r.without(rename[0]).with(rename[1], v);
      }
    }
    return r;
  }}
