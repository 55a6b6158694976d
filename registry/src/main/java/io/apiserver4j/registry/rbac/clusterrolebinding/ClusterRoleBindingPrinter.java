/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.clusterrolebinding;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.doc;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;
import static io.apiserver4j.registry.internal.Cells.wide;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.internal.Cells;
import java.time.Instant;
import java.util.List;

/**
 * kube's ClusterRoleBinding columns ({@code printClusterRoleBinding} of
 * pkg/printers/internalversion).
 */
public final class ClusterRoleBindingPrinter {
  private ClusterRoleBindingPrinter() {}

  /** Name, Role (kind/name), Age; wide: the Users, Groups and ServiceAccounts bound. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("Role", "string", doc("io.k8s.api.rbac.v1.ClusterRoleBinding", "roleRef")), AGE,
        wide("Users", "string", "Users in the clusterRoleBinding"),
        wide("Groups", "string", "Groups in the clusterRoleBinding"),
        wide("ServiceAccounts", "string", "ServiceAccounts in the clusterRoleBinding")),
        ClusterRoleBindingPrinter::cells);
  }

  private static List<Value> cells(MapValue o, Instant now) {
    List<String> subjects = Cells.subjectsStrings(o);
    return row(name(o), str(o, "roleRef", "kind") + "/" + str(o, "roleRef", "name"),
        age(o, now), subjects.get(0), subjects.get(1), subjects.get(2));
  }
}
