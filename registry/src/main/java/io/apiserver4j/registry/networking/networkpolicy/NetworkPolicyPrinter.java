/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.networkpolicy;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.registry.internal.Cells;
import java.util.List;

/** The {@code kubectl get networkpolicies} columns of kube's {@code printNetworkPolicy}. */
public final class NetworkPolicyPrinter {
  private NetworkPolicyPrinter() {}

  /** The NetworkPolicy's table printer. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Pod-Selector", "string", doc("io.k8s.api.networking.v1.NetworkPolicySpec",
            "podSelector")), AGE),
        (o, now) -> row(name(o), formatLabelSelector(Cells.at(o, "spec", "podSelector")),
            age(o, now)));
  }
}
