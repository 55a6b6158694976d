/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of kube's type check of a rule that catches mistyped field names: selections
 * ({@code self.a.b}, {@code has(self.a)}) on variables whose schema is known must name declared
 * fields. Reported with cel-go's message and source snippet.
 */
final class FieldCheck {
  private FieldCheck() {}

  static void check(CelAbstractSyntaxTree ast, String expression,
      Map<String, CelObjectType> types) {
    List<String> errors = new ArrayList<>();
    CelNavigableAst.fromAst(ast).getRoot().allNodes()
        .filter(n -> n.getKind() == CelExpr.ExprKind.Kind.SELECT)
        .map(CelNavigableExpr::expr)
        .forEach(e -> {
          Optional<CelObjectType> operand = typeOf(e.select().operand(), types);
          if (operand.isPresent() && !operand.get().open()
              && operand.get().field(e.select().field()).isEmpty()) {
            errors.add(message(ast, expression, e.id(), "undefined field '"
                + e.select().field() + "'"));
          }
        });
    if (!errors.isEmpty()) {
      throw new CelException(CelException.Kind.COMPILE, String.join("\n", errors), null);
    }
  }

  private static Optional<CelObjectType> typeOf(CelExpr e, Map<String, CelObjectType> types) {
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      return Optional.ofNullable(types.get(e.ident().name()));
    }
    if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && !e.select().testOnly()) {
      Optional<CelObjectType> operand = typeOf(e.select().operand(), types);
      if (operand.isEmpty() || operand.get().open()) {
        return Optional.empty();
      }
      return operand.get().field(e.select().field());
    }
    return Optional.empty();
  }

  private static String message(CelAbstractSyntaxTree ast, String expression, long id,
      String msg) {
    Integer offset = ast.getSource().getPositionsMap().get(id);
    if (offset == null) {
      return "ERROR: <input>: " + msg;
    }
    int line = 1;
    int lineStart = 0;
    int[] cps = expression.codePoints().toArray();
    for (int i = 0; i < offset && i < cps.length; i++) {
      if (cps[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int col = offset - lineStart;
    int lineEnd = lineStart;
    while (lineEnd < cps.length && cps[lineEnd] != '\n') {
      lineEnd++;
    }
    String text = new String(cps, lineStart, lineEnd - lineStart);
    return "ERROR: <input>:" + line + ":" + (col + 1) + ": " + msg + "\n | " + text + "\n | "
        + ".".repeat(col) + "^";
  }
}
