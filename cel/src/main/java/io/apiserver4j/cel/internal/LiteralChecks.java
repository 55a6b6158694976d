/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import io.apiserver4j.cel.CelException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The checks of literals that kube's CEL environment adds to cel-go's type check (cel-go's
 * {@code ValidateDurationLiterals}, {@code ValidateTimestampLiterals},
 * {@code ValidateRegexLiterals} and {@code ValidateHomogeneousAggregateLiterals}): a constant
 * argument of {@code duration()}, {@code timestamp()} or {@code matches()} must be valid, and the
 * elements of a list literal (keys and values of a map literal) must have one type. Reported
 * with cel-go's messages at the literal's position.
 */
final class LiteralChecks {
  /** cel-go's timestamp range: years 1 to 9999. */
  private static final long MIN_UNIX_SECONDS = -62135596800L;
  private static final long MAX_UNIX_SECONDS = 253402300799L;

  private LiteralChecks() {}

  /** Whether the elements of aggregate literals are checked to share one type. */
  enum Aggregates {
    HOMOGENEOUS,
    UNCHECKED
  }

  static void check(CelAbstractSyntaxTree ast, String expression, Aggregates aggregates) {
    List<String> errors = new ArrayList<>();
    boolean homogeneous = aggregates == Aggregates.HOMOGENEOUS;
    // cel-go exempts the argument list of the strings extension's format()
    java.util.Set<Long> exempt = new java.util.HashSet<>();
    CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
        .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL
            && e.call().function().equals("format") && e.call().target().isPresent())
        .forEach(e -> e.call().args().forEach(a -> exempt.add(a.id())));
    CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
        .filter(e -> !exempt.contains(e.id())).forEach(e -> {
      switch (e.getKind()) {
        case CALL -> call(e.call()).ifPresent(bad -> errors.add(FieldCheck.messageAt(ast,
            expression, position(ast, expression, bad),
            "invalid " + e.call().function() + " argument")));
        case LIST -> (homogeneous ? homogeneous(ast, e.list().elements(),
            e.list().optionalIndices()) : Optional.<Mismatch>empty())
            .ifPresent(m -> errors.add(FieldCheck.message(ast, expression, m.id(), m.text())));
        case MAP -> {
          if (homogeneous) {
            map(ast, expression, e, errors);
          }
        }
        default -> { }
      }
    });
    if (!errors.isEmpty()) {
      throw new CelException(CelException.Kind.COMPILE, String.join("\n", errors), null);
    }
    CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
        .filter(e -> e.getKind() == CelExpr.ExprKind.Kind.CALL && e.call().target().isPresent()
            && (e.call().function().equals("find") || e.call().function().equals("findAll"))
            && !e.call().args().isEmpty()
            && e.call().args().get(0).getKind() == CelExpr.ExprKind.Kind.CONSTANT
            && e.call().args().get(0).constant().getKind() == CelConstant.Kind.STRING_VALUE)
        .map(e -> e.call().args().get(0).constant().stringValue())
        .map(LiteralChecks::regexError).flatMap(Optional::stream).findFirst()
        .ifPresent(error -> {
          // kube's regex library compiles constant patterns when the program is built
          throw new CelException(CelException.Kind.COMPILE,
              "program instantiation failed: " + error, null);
        });
  }

  /** Where cel-go reports a literal: a negative number at its sign. */
  private static int position(CelAbstractSyntaxTree ast, String expression, CelExpr e) {
    CelExpr literal = e.getKind() == CelExpr.ExprKind.Kind.CALL ? e.call().args().get(0) : e;
    int offset = ast.getSource().getPositionsMap().getOrDefault(literal.id(),
        ast.getSource().getPositionsMap().getOrDefault(e.id(), 0));
    int[] cps = expression.codePoints().toArray();
    boolean negative = e.getKind() == CelExpr.ExprKind.Kind.CALL
        || literal.constant().getKind() == CelConstant.Kind.INT64_VALUE
        && literal.constant().int64Value() < 0;
    return negative && offset > 0 && offset <= cps.length && cps[offset - 1] == '-'
        ? offset - 1 : offset;
  }

  /** Go's error for a pattern RE2 rejects. */
  static Optional<String> regexError(String pattern) {
    try {
      Pattern.compile(pattern);
      return Optional.empty();
    } catch (PatternSyntaxException e) {
      String m = e.getMessage();
      if (m.contains("stack underflow")) {
        // re2j reports an unmatched ')' as an internal error; Go's regexp names it
        return Optional.of("error parsing regexp: unexpected ): `" + pattern + "`");
      }
      return Optional.of(m.startsWith("error parsing regexp: ") ? m
          : "error parsing regexp: " + m);
    } catch (IllegalArgumentException e) {
      return Optional.of("error parsing regexp: " + e.getMessage());
    }
  }

  private static void map(CelAbstractSyntaxTree ast, String expression, CelExpr e,
      List<String> errors) {
    List<CelExpr> keys = new ArrayList<>();
    List<CelExpr> values = new ArrayList<>();
    List<Integer> optional = new ArrayList<>();
    for (CelExpr.CelMap.Entry entry : e.map().entries()) {
      if (entry.optionalEntry()) {
        optional.add(values.size());
      }
      keys.add(entry.key());
      values.add(entry.value());
    }
    Optional<Mismatch> m = homogeneous(ast, keys, List.of());
    if (m.isEmpty()) {
      m = homogeneous(ast, values, optional);
    }
    m.ifPresent(x -> errors.add(FieldCheck.message(ast, expression, x.id(), x.text())));
  }

  /** The constant argument of a call that cel-go's literal validators reject. */
  private static Optional<CelExpr> call(CelExpr.CelCall call) {
    String function = call.function();
    int index = call.target().isPresent() ? 0 : function.equals("matches") ? 1 : 0;
    if (!(function.equals("duration") || function.equals("timestamp")
        || function.equals("matches")) || call.args().size() <= index) {
      return Optional.empty();
    }
    CelExpr arg = call.args().get(index);
    if (function.equals("timestamp") && arg.getKind() == CelExpr.ExprKind.Kind.CALL
        && arg.call().function().equals("-_") && arg.call().args().size() == 1
        && arg.call().args().get(0).getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && arg.call().args().get(0).constant().getKind() == CelConstant.Kind.INT64_VALUE) {
      // a negative literal the parser left as a negation
      long seconds = -arg.call().args().get(0).constant().int64Value();
      return seconds >= MIN_UNIX_SECONDS ? Optional.empty() : Optional.of(arg);
    }
    if (arg.getKind() != CelExpr.ExprKind.Kind.CONSTANT) {
      return Optional.empty();
    }
    CelConstant c = arg.constant();
    boolean valid = switch (function) {
      case "duration" -> c.getKind() != CelConstant.Kind.STRING_VALUE
          || validDuration(c.stringValue());
      case "timestamp" -> c.getKind() == CelConstant.Kind.STRING_VALUE
          ? validTimestamp(c.stringValue())
          : c.getKind() != CelConstant.Kind.INT64_VALUE
              || c.int64Value() >= MIN_UNIX_SECONDS && c.int64Value() <= MAX_UNIX_SECONDS;
      default -> c.getKind() != CelConstant.Kind.STRING_VALUE || validRegex(c.stringValue());
    };
    return valid ? Optional.empty() : Optional.of(arg);
  }

  private static boolean validDuration(String s) {
    try {
      KubeScalars.duration(s);
      return true;
    } catch (CelException e) {
      return false;
    }
  }

  private static boolean validTimestamp(String s) {
    try {
      // Go's time.RFC3339 layout, as cel-go parses timestamp strings
      OffsetDateTime t = OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
      long seconds = t.toEpochSecond();
      return seconds >= MIN_UNIX_SECONDS && seconds <= MAX_UNIX_SECONDS;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean validRegex(String s) {
    try {
      Pattern.compile(s);
      return true;
    } catch (PatternSyntaxException | IllegalArgumentException e) {
      return false;
    }
  }

  private record Mismatch(long id, String text) {}

  /** The first element whose type differs from the first element's, as cel-go reports it. */
  private static Optional<Mismatch> homogeneous(CelAbstractSyntaxTree ast, List<CelExpr> elems,
      List<Integer> optionalIndices) {
    CelType first = null;
    for (int i = 0; i < elems.size(); i++) {
      Optional<CelType> t = ast.getType(elems.get(i).id());
      if (t.isEmpty()) {
        return Optional.empty();
      }
      CelType type = t.get();
      if (optionalIndices.contains(i) && type.kind() == CelKind.OPAQUE
          && type.parameters().size() == 1) {
        type = type.parameters().get(0);
      }
      if (!concrete(type)) {
        // cel-java types the variables as dyn where kube declares their schema types: only
        // literals of known types are compared
        return Optional.empty();
      }
      if (first == null) {
        first = type;
      } else if (!first.equals(type)) {
        return Optional.of(new Mismatch(elems.get(i).id(), "expected type '" + format(first)
            + "' but found '" + format(type) + "'"));
      }
    }
    return Optional.empty();
  }

  private static boolean concrete(CelType t) {
    return switch (t.kind()) {
      case DYN, ANY, ERROR, TYPE_PARAM, NULL_TYPE -> false;
      default -> t.parameters().stream().allMatch(LiteralChecks::concrete);
    };
  }

  private static String format(CelType t) {
    if (t.parameters().isEmpty()) {
      return t.name();
    }
    StringBuilder sb = new StringBuilder(t.name()).append('(');
    for (int i = 0; i < t.parameters().size(); i++) {
      sb.append(i > 0 ? ", " : "").append(format(t.parameters().get(i)));
    }
    return sb.append(')').toString();
  }
}
