/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.configmap;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** The ConfigMap table (kube's {@code printConfigMap}): name, number of keys, age. */
public final class ConfigMapPrinter {
  private ConfigMapPrinter() {}

  /** The ConfigMap printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Data", "string", doc("io.k8s.api.core.v1.ConfigMap", "data")), AGE),
        (o, now) -> row(name(o), (long) (map(o, "data").size() + map(o, "binaryData").size()),
            age(o, now)));
  }
}
