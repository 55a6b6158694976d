/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admissionregistration.mutatingadmissionpolicybinding;

import static io.apiserver4j.registry.internal.Cells.AGE;
import static io.apiserver4j.registry.internal.Cells.NAME;
import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.col;
import static io.apiserver4j.registry.internal.Cells.name;
import static io.apiserver4j.registry.internal.Cells.paramRef;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import java.util.List;

/** kube's MutatingAdmissionPolicyBinding columns (pkg/printers/internalversion). */
public final class MutatingAdmissionPolicyBindingPrinter {
  private MutatingAdmissionPolicyBindingPrinter() {}

  /** Name, PolicyName, ParamRef ({@code namespace/name}), Age. */
  public static TablePrinter printer() {
    return TablePrinter.of(List.of(NAME,
        col("PolicyName", "string", "PolicyName indicates the policy definition which the"
            + " policy binding binded to"),
        col("ParamRef", "string", "ParamRef indicates the param resource which sets the"
            + " configration param"), AGE),
        (o, now) -> row(name(o), str(o, "spec", "policyName"), paramRef(o), age(o, now)));
  }
}
