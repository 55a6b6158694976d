/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.deviceclass;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's DeviceClass columns (pkg/printers/internalversion). */
public final class DeviceClassPrinter {
  private DeviceClassPrinter() {}

  /** Name, Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME, AGE), (o, now) -> row(name(o), age(o, now)));
  }
}
