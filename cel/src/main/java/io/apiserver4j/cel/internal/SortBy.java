/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.ListType;
import dev.cel.common.types.TypeParamType;
import dev.cel.parser.CelMacro;
import dev.cel.parser.CelMacroExprFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * cel-go's {@code sortBy} macro of its lists extension (version 2 and later), as cel-go expands
 * it: {@code list.sortBy(e, key)} binds the list once and calls
 * {@code @sortByAssociatedKeys(list, list.map(e, key))}, which returns the list's elements
 * ordered (stably) by their keys, so the result has the list's own type. cel-java 0.14 declares
 * its own version of the function as taking the pairs of element and key, which types the
 * result as a list of pairs and refuses {@code [..].sortBy(e, e) == [..]}.
 */
final class SortBy {
  static final String FUNCTION = "@sortByAssociatedKeys";
  private static final String INPUT = "@__sortBy_input__";

  private SortBy() {}

  static void add(CelBuilder b) {
    TypeParamType t = TypeParamType.create("T");
    TypeParamType u = TypeParamType.create("U");
    b.addMacros(CelMacro.newReceiverMacro("sortBy", 2, SortBy::expand));
    b.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration(FUNCTION,
        CelOverloadDecl.newGlobalOverload("list_sort_by_associated_keys",
            ListType.create(t), ListType.create(t), ListType.create(u))));
    b.addFunctionBindings(CelFunctionBinding.from("list_sort_by_associated_keys", List.class,
        List.class, SortBy::sortByAssociatedKeys));
  }

  private static Optional<CelExpr> expand(CelMacroExprFactory f, CelExpr target,
      ImmutableList<CelExpr> args) {
    CelExpr var = args.get(0);
    if (var.exprKind().getKind() != CelExpr.ExprKind.Kind.IDENT) {
      return Optional.of(f.reportError(dev.cel.common.CelIssue.formatError(
          f.getSourceLocation(var), "sortBy(var, ...) variable name must be a simple identifier")));
    }
    String name = var.ident().name();
    // input.map(name, key), spelled out as the map macro expands it
    String accu = f.getAccumulatorVarName();
    CelExpr keys = f.fold(name, f.newIdentifier(INPUT), accu, f.newList(),
        f.newBoolLiteral(true),
        f.newGlobalCall("_+_", f.newIdentifier(accu), f.newList(f.copy(args.get(1)))),
        f.newIdentifier(accu));
    CelExpr call = f.newGlobalCall(FUNCTION, f.newIdentifier(INPUT), keys);
    // cel.bind(input, target, call): a comprehension over no items whose accumulator is the list
    return Optional.of(f.fold("#unused", f.newList(), INPUT, target, f.newBoolLiteral(false),
        f.newIdentifier(INPUT), call));
  }

  /** cel-go's {@code sortByAssociatedKeys}, with its texts. */
  private static List<?> sortByAssociatedKeys(List<?> list, List<?> keys)
      throws CelEvaluationException {
    if (list.size() != keys.size()) {
      throw new CelEvaluationException("@sortByAssociatedKeys() expected a list of the same size"
          + " as the associated keys list, but got " + list.size() + " and " + keys.size()
          + " elements respectively.");
    }
    if (list.isEmpty()) {
      return list;
    }
    Object first = keys.get(0);
    if (!(first instanceof Comparable<?>)) {
      throw new CelEvaluationException("list elements must be comparable");
    }
    for (Object k : keys) {
      if (k.getClass() != first.getClass()) {
        throw new CelEvaluationException("list elements must have the same type");
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      order.add(i);
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    Comparator<Integer> byKey = (x, y) -> ((Comparable) keys.get(x)).compareTo(keys.get(y));
    order.sort(byKey); // List.sort is stable, as cel-go's sort.SliceStable
    ImmutableList.Builder<Object> out = ImmutableList.builder();
    for (int i : order) {
      out.add(list.get(i));
    }
    return out.build();
  }
}
