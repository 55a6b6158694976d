/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.validatingwebhookconfiguration;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's ValidatingWebhookConfiguration columns (pkg/printers/internalversion). */
public final class ValidatingWebhookConfigurationPrinter {
  private ValidatingWebhookConfigurationPrinter() {}

  /** Name, Webhooks (their number), Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Webhooks", "integer", "Webhooks indicates the number of webhooks registered in"
            + " this configuration"), AGE),
        (o, now) -> row(name(o), (long) list(o, "webhooks").size(), age(o, now)));
  }
}
