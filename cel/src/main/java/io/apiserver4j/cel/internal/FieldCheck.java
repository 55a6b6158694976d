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
    CelNavigableAst.fromAst(ast).getRoot().allNodes()
        .filter(n -> n.getKind() == CelExpr.ExprKind.Kind.CALL)
        .map(CelNavigableExpr::expr)
        .forEach(e -> overload(ast, e, types).ifPresent(args -> errors.add(message(ast,
            expression, e.id(), "found no matching overload for '" + e.call().function()
            + "' applied to '(" + args + ")'"))));
    if (!errors.isEmpty()) {
      throw new CelException(CelException.Kind.COMPILE, String.join("\n", errors), null);
    }
  }

  /**
   * The argument types of an equality or index that cel-go's checker rejects because the
   * declared schema types of its operands cannot match (kube declares each schema type; here the
   * variables are {@code dyn}, so only operands of known kinds are compared).
   */
  private static Optional<String> overload(CelAbstractSyntaxTree ast, CelExpr e,
      Map<String, CelObjectType> types) {
    String f = e.call().function();
    if (e.call().target().isPresent() || e.call().args().size() != 2) {
      return Optional.empty();
    }
    if (f.equals("_==_") || f.equals("_!=_")) {
      Optional<String> a = kindOf(ast, e.call().args().get(0), types);
      Optional<String> b = kindOf(ast, e.call().args().get(1), types);
      if (a.isEmpty() || b.isEmpty() || a.get().equals(b.get())) {
        return Optional.empty();
      }
      // null may be compared with objects, which cel-go types as messages
      if (a.get().equals("null") && b.get().equals("object")
          || a.get().equals("object") && b.get().equals("null")) {
        return Optional.empty();
      }
      return Optional.of(a.get() + ", " + b.get());
    }
    if (f.equals("_[_]")) {
      Optional<CelObjectType> operand = typeOf(e.call().args().get(0), types);
      if (operand.isPresent() && operand.get().kind() == CelObjectType.ValueKind.OBJECT
          && !operand.get().open()) {
        Optional<String> index = kindOf(ast, e.call().args().get(1), types);
        return index.map(i -> "object, " + i);
      }
    }
    return Optional.empty();
  }

  /** The type name of an operand whose type is certain, as cel-go prints it. */
  private static Optional<String> kindOf(CelAbstractSyntaxTree ast, CelExpr e,
      Map<String, CelObjectType> types) {
    switch (e.getKind()) {
      case CONSTANT -> {
        return Optional.of(switch (e.constant().getKind()) {
          case NULL_VALUE -> "null";
          case BOOLEAN_VALUE -> "bool";
          case INT64_VALUE -> "int";
          case UINT64_VALUE -> "uint";
          case DOUBLE_VALUE -> "double";
          case STRING_VALUE -> "string";
          case BYTES_VALUE -> "bytes";
          default -> "";
        }).filter(k -> !k.isEmpty());
      }
      case MAP -> {
        return Optional.of("map");
      }
      case LIST -> {
        return Optional.of("list");
      }
      case IDENT, SELECT, CALL -> {
        Optional<CelObjectType> t = typeOf(e, types);
        if (t.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(switch (t.get().kind()) {
          case STRING -> "string";
          case INT -> "int";
          case DOUBLE -> "double";
          case BOOL -> "bool";
          case BYTES -> "bytes";
          case DURATION -> "google.protobuf.Duration";
          case TIMESTAMP -> "google.protobuf.Timestamp";
          case OBJECT -> t.get().open() ? "" : "object";
          case LIST -> "list";
          default -> "";
        }).filter(k -> !k.isEmpty());
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static Optional<CelObjectType> typeOf(CelExpr e, Map<String, CelObjectType> types) {
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      return Optional.ofNullable(types.get(e.ident().name()));
    }
    if (e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().function().equals("_[_]")
        && e.call().target().isEmpty() && e.call().args().size() == 2) {
      // an item of a list
      Optional<CelObjectType> list = typeOf(e.call().args().get(0), types);
      return list.filter(l -> l.kind() == CelObjectType.ValueKind.LIST)
          .flatMap(CelObjectType::element);
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

  /** cel-go's error text: the position, the message and the source line with a caret. */
  static String message(CelAbstractSyntaxTree ast, String expression, long id,
      String msg) {
    Integer offset = ast.getSource().getPositionsMap().get(id);
    if (offset == null) {
      return "ERROR: <input>: " + msg;
    }
    return messageAt(ast, expression, offset, msg);
  }

  /** Like {@link #message}, at a code point offset of the expression. */
  static String messageAt(CelAbstractSyntaxTree ast, String expression, int offset,
      String msg) {
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
