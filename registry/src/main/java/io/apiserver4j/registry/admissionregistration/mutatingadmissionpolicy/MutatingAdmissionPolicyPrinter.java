/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.mutatingadmissionpolicy;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.paramKind;
import static io.apiserver4j.registry.internal.Cells.row;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's MutatingAdmissionPolicy columns (pkg/printers/internalversion). */
public final class MutatingAdmissionPolicyPrinter {
  private MutatingAdmissionPolicyPrinter() {}

  /** Name, Mutations (their number), ParamKind ({@code apiVersion/kind}), Age. */
  public static TablePrinter printer() {
    String paramKindDoc = "ParamKind specifies the kind of resources used to parameterize this"
        + " policy";
    return TablePrinter.of(List.of(NAME,
        col("Mutations", "integer", "Mutation indicates the number of mutations rules defined"
            + " in this configuration"), col("ParamKind", "string", paramKindDoc), AGE),
        (o, now) -> row(name(o), (long) list(o, "spec", "mutations").size(), paramKind(o),
            age(o, now)));
  }
}
