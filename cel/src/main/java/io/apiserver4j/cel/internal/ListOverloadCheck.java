/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import io.apiserver4j.cel.CelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The element types kube's lists library declares its functions for ({@code summableTypes}
 * and {@code comparableTypes} of apiserver's {@code pkg/cel/library/lists.go}): this
 * environment declares {@code sum}, {@code min}, {@code max} and {@code isSorted} once for any
 * list, so a list whose checked element type kube has no overload for is refused here, with
 * cel-go's {@code found no matching overload} text, as cel-go's checker refuses it.
 */
final class ListOverloadCheck {
  private static final Set<CelKind> SUMMABLE =
      Set.of(CelKind.INT, CelKind.UINT, CelKind.DOUBLE, CelKind.DURATION);
  private static final Set<CelKind> COMPARABLE = Set.of(CelKind.INT, CelKind.UINT,
      CelKind.DOUBLE, CelKind.BOOL, CelKind.DURATION, CelKind.TIMESTAMP, CelKind.STRING,
      CelKind.BYTES);
  private static final Map<String, Set<CelKind>> ELEMENTS = Map.of("sum", SUMMABLE,
      "min", COMPARABLE, "max", COMPARABLE, "isSorted", COMPARABLE);

  private ListOverloadCheck() {}

  static void check(CelAbstractSyntaxTree ast, String expression) {
    List<String> errors = new ArrayList<>();
    CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
        .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().args().isEmpty()
            && e.call().target().isPresent() && ELEMENTS.containsKey(e.call().function()))
        .forEach(e -> ast.getType(e.call().target().get().id()).ifPresent(t -> {
          if (t instanceof ListType l && !allowed(l.elemType(), ELEMENTS.get(
              e.call().function()))) {
            errors.add(FieldCheck.message(ast, expression, e.id(),
                "found no matching overload for '" + e.call().function() + "' applied to '"
                    + name(t) + ".()'"));
          }
        }));
    if (!errors.isEmpty()) {
      throw new CelException(CelException.Kind.COMPILE, String.join("\n", errors), null);
    }
  }

  private static boolean allowed(CelType element, Set<CelKind> kinds) {
    return kinds.contains(element.kind()) || element.kind() == CelKind.DYN
        || element.kind() == CelKind.ANY || element.kind() == CelKind.TYPE_PARAM
        || element.kind() == CelKind.ERROR;
  }

  /** A type as cel-go's messages spell it. */
  static String name(CelType t) {
    if (t instanceof ListType l) {
      return "list(" + name(l.elemType()) + ")";
    }
    if (t instanceof MapType m) {
      return "map(" + name(m.keyType()) + ", " + name(m.valueType()) + ")";
    }
    if (!t.parameters().isEmpty()) {
      return t.name() + "(" + t.parameters().stream().map(ListOverloadCheck::name)
          .collect(Collectors.joining(", ")) + ")";
    }
    return t.name();
  }
}
