/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.event;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.registry.internal.Cells;

/**
 * The core/v1 Event table (kube's {@code printEvent}); its columns and cells are in
 * {@code Cells} because events.k8s.io Events print through them too.
 */
public final class EventPrinter {
  private EventPrinter() {}

  /** The core/v1 Event printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(Cells.eventColumns(), Cells::eventCells);
  }
}
