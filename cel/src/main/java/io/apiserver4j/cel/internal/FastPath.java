/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.runtime.CelVariableResolver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A checked CEL expression of a common subset (variables, field selection, {@code has()},
 * comparisons, integer arithmetic, logical operators, conditionals, indexing, {@code in},
 * {@code size}, string prefixes, suffixes and containment, list literals and the comprehensions
 * of the standard macros) translated into a tree of Java closures, which runs several times
 * faster than cel-java's interpreter walking the AST.
 *
 * <p>It returns a result only when it is certain to be the one cel-java returns. Anything else —
 * every error (overflow, a missing field or key, a bad index, a type without an overload),
 * values of types outside the subset (timestamps, optionals, bytes, ...) and mixed-type
 * operands — throws {@link Bail}, and the caller evaluates with cel-java, which reports its own
 * error or result. Evaluation has no side effects, so running cel-java after a bail is
 * indistinguishable from running it alone. {@code FastPathTest} runs a table of expressions
 * through both and checks this.
 */
final class FastPath {
  /** The fast path cannot decide; cel-java must evaluate. Carries no stack trace. */
  static final class Bail extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Bail INSTANCE = new Bail();

    private Bail() {
      super("not evaluated by the fast path", null, false, false);
    }
  }

  /** One evaluation's state: the variables, comprehension slots and iteration count. */
  static final class Frame {
    final CelVariableResolver variables;
    final Object[] slots;
    final int maxIterations;
    int iterations;

    Frame(CelVariableResolver variables, int slots, int maxIterations) {
      this.variables = variables;
      this.slots = new Object[slots];
      this.maxIterations = maxIterations;
    }
  }

  @FunctionalInterface
  interface Node {
    Object eval(Frame f);
  }

  private final Node root;
  private final int slots;
  private final int maxIterations;

  private FastPath(Node root, int slots, int maxIterations) {
    this.root = root;
    this.slots = slots;
    this.maxIterations = maxIterations;
  }

  /**
   * The fast path of {@code ast}, or empty when the expression uses anything outside the
   * subset (then cel-java alone evaluates it).
   *
   * @param variables the declared variable names
   * @param nullConstant what cel-java evaluates the {@code null} literal to
   */
  static Optional<FastPath> plan(CelAbstractSyntaxTree ast, Set<String> variables,
      Object nullConstant, int maxIterations) {
    if (!ast.isChecked()) {
      return Optional.empty();
    }
    Planner p = new Planner(ast, variables, nullConstant);
    try {
      Node root = p.plan(ast.getExpr(), Map.of());
      return Optional.of(new FastPath(root, p.slots, maxIterations));
    } catch (Unsupported e) {
      return Optional.empty();
    }
  }

  /**
   * Evaluates.
   *
   * @throws Bail when cel-java must evaluate instead
   */
  Object evaluate(CelVariableResolver variables) {
    Object result = root.eval(new Frame(variables, slots, maxIterations));
    if (result instanceof Boolean || result instanceof String || result instanceof Long
        || result instanceof Double || result instanceof List || result instanceof Map
        || isNull(result)) {
      return result;
    }
    throw bail(); // e.g. an optional variable as the result: cel-java's conversions apply
  }

  /** The expression is outside the subset. */
  private static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unsupported() {
      super(null, null, false, false);
    }
  }

  private static Bail bail() {
    return Bail.INSTANCE;
  }

  /** Translates the AST; comprehension variables get slots of the frame. */
  private static final class Planner {
    private final CelAbstractSyntaxTree ast;
    private final Set<String> variables;
    private final Object nullConstant;
    int slots;

    Planner(CelAbstractSyntaxTree ast, Set<String> variables, Object nullConstant) {
      this.ast = ast;
      this.variables = variables;
      this.nullConstant = nullConstant;
    }

    Node plan(CelExpr e, Map<String, Integer> scope) {
      switch (e.getKind()) {
        case CONSTANT:
          return constant(e.constant());
        case IDENT:
          return ident(e, scope);
        case SELECT:
          return select(e, scope);
        case CALL:
          return call(e, scope);
        case LIST:
          return list(e, scope);
        case COMPREHENSION:
          return comprehension(e, scope);
        default:
          throw new Unsupported();
      }
    }

    private Node constant(CelConstant c) {
      Object v;
      switch (c.getKind()) {
        case NULL_VALUE:
          v = nullConstant;
          break;
        case BOOLEAN_VALUE:
          v = c.booleanValue();
          break;
        case INT64_VALUE:
          v = c.int64Value();
          break;
        case DOUBLE_VALUE:
          v = c.doubleValue();
          break;
        case STRING_VALUE:
          v = c.stringValue();
          break;
        default:
          throw new Unsupported();
      }
      Object value = v;
      return f -> value;
    }

    private Node ident(CelExpr e, Map<String, Integer> scope) {
      String name = e.ident().name();
      if (ast.getReference(e.id()).flatMap(r -> r.value()).isPresent()
          || ast.getType(e.id()).map(t -> t.kind() == CelKind.TYPE).orElse(false)) {
        throw new Unsupported();
      }
      Integer slot = scope.get(name);
      if (slot != null) {
        int s = slot;
        return f -> f.slots[s];
      }
      if (!variables.contains(name)) {
        throw new Unsupported();
      }
      return f -> {
        Optional<Object> v = f.variables.find(name);
        if (v.isEmpty() || v.get() == null) {
          throw bail();
        }
        return v.get();
      };
    }

    private Node select(CelExpr e, Map<String, Integer> scope) {
      if (ast.getReference(e.id()).isPresent()) {
        throw new Unsupported(); // a qualified name resolved by the checker
      }
      Node operand = plan(e.select().operand(), scope);
      String field = e.select().field();
      if (e.select().testOnly()) {
        return f -> {
          if (operand.eval(f) instanceof Map<?, ?> m) {
            return m.containsKey(field);
          }
          throw bail();
        };
      }
      return f -> {
        if (operand.eval(f) instanceof Map<?, ?> m) {
          Object v = m.get(field);
          if (v != null) {
            return v;
          }
        }
        throw bail();
      };
    }

    private Node list(CelExpr e, Map<String, Integer> scope) {
      if (!e.list().optionalIndices().isEmpty()) {
        throw new Unsupported();
      }
      List<Node> items = new ArrayList<>();
      for (CelExpr item : e.list().elements()) {
        items.add(plan(item, scope));
      }
      Node[] nodes = items.toArray(new Node[0]);
      if (nodes.length == 0) {
        return f -> List.of();
      }
      return f -> {
        Object[] out = new Object[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
          out[i] = nodes[i].eval(f);
        }
        return Collections.unmodifiableList(java.util.Arrays.asList(out));
      };
    }

    private Node comprehension(CelExpr e, Map<String, Integer> scope) {
      CelExpr.CelComprehension c = e.comprehension();
      if (!c.iterVar2().isEmpty()) {
        throw new Unsupported();
      }
      Node range = plan(c.iterRange(), scope);
      Node init = plan(c.accuInit(), scope);
      int iterSlot = slots++;
      int accuSlot = slots++;
      Map<String, Integer> loopScope = new HashMap<>(scope);
      loopScope.put(c.iterVar(), iterSlot);
      loopScope.put(c.accuVar(), accuSlot);
      Node condition = plan(c.loopCondition(), loopScope);
      Node step = plan(c.loopStep(), loopScope);
      Map<String, Integer> resultScope = new HashMap<>(scope);
      resultScope.put(c.accuVar(), accuSlot);
      Node result = plan(c.result(), resultScope);
      return f -> {
        Object r = range.eval(f);
        Collection<?> items;
        if (r instanceof List<?> l) {
          items = l;
        } else if (r instanceof Map<?, ?> m) {
          items = m.keySet();
        } else {
          throw bail();
        }
        Object accu = init.eval(f);
        for (Object item : items) {
          if (++f.iterations > f.maxIterations) {
            throw bail(); // cel-java reports the exceeded limit
          }
          if (!(item instanceof Long || item instanceof String || item instanceof Boolean
              || item instanceof Double || item instanceof Map || item instanceof List)) {
            throw bail(); // cel-java adapts other representations
          }
          f.slots[iterSlot] = item;
          f.slots[accuSlot] = accu;
          if (!bool(condition.eval(f))) {
            break;
          }
          accu = step.eval(f);
        }
        f.slots[accuSlot] = accu;
        return result.eval(f);
      };
    }

    private Node call(CelExpr e, Map<String, Integer> scope) {
      CelExpr.CelCall call = e.call();
      String fn = call.function();
      List<CelExpr> args = call.args();
      if (call.target().isPresent()) {
        Node target = plan(call.target().get(), scope);
        if (args.isEmpty() && fn.equals("size")) {
          return f -> size(target.eval(f));
        }
        if (args.size() != 1) {
          throw new Unsupported();
        }
        Node arg = plan(args.get(0), scope);
        switch (fn) {
          case "startsWith":
            return f -> target.eval(f) instanceof String s && arg.eval(f) instanceof String p
                ? (Object) s.startsWith(p) : fail();
          case "endsWith":
            return f -> target.eval(f) instanceof String s && arg.eval(f) instanceof String p
                ? (Object) s.endsWith(p) : fail();
          case "contains":
            return f -> target.eval(f) instanceof String s && arg.eval(f) instanceof String p
                ? (Object) s.contains(p) : fail();
          default:
            throw new Unsupported();
        }
      }
      if (args.size() == 1) {
        Node a = plan(args.get(0), scope);
        switch (fn) {
          case "size":
            return f -> size(a.eval(f));
          case "!_":
            return f -> {
              Object v = a.eval(f);
              if (v instanceof Boolean b) {
                return !b;
              }
              throw bail();
            };
          case "-_":
            return f -> {
              Object v = a.eval(f);
              if (v instanceof Long l && l != Long.MIN_VALUE) {
                return -l;
              }
              if (v instanceof Double d) {
                return -d;
              }
              throw bail();
            };
          case "@not_strictly_false":
            return f -> {
              Object v = a.eval(f);
              if (v instanceof Boolean) {
                return v;
              }
              throw bail();
            };
          default:
            throw new Unsupported();
        }
      }
      if (args.size() == 3 && fn.equals("_?_:_")) {
        Node cond = plan(args.get(0), scope);
        Node then = plan(args.get(1), scope);
        Node otherwise = plan(args.get(2), scope);
        return f -> {
          return bool(cond.eval(f)) ? then.eval(f) : otherwise.eval(f);
        };
      }
      if (args.size() != 2) {
        throw new Unsupported();
      }
      Node l = plan(args.get(0), scope);
      Node r = plan(args.get(1), scope);
      switch (fn) {
        case "_&&_":
          return f -> {
            return bool(l.eval(f)) && bool(r.eval(f));
          };
        case "_||_":
          return f -> {
            return bool(l.eval(f)) || bool(r.eval(f));
          };
        case "_==_":
          return f -> equal(l.eval(f), r.eval(f));
        case "_!=_":
          return f -> !equal(l.eval(f), r.eval(f));
        case "_<_":
          return f -> compare(l.eval(f), r.eval(f)) < 0;
        case "_<=_":
          return f -> compare(l.eval(f), r.eval(f)) <= 0;
        case "_>_":
          return f -> compare(l.eval(f), r.eval(f)) > 0;
        case "_>=_":
          return f -> compare(l.eval(f), r.eval(f)) >= 0;
        case "_+_":
          return f -> add(l.eval(f), r.eval(f));
        case "_-_":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (a instanceof Long x && b instanceof Long y) {
              long d = x - y;
              if (((x ^ y) & (x ^ d)) < 0) {
                throw bail();
              }
              return d;
            }
            if (a instanceof Double x && b instanceof Double y) {
              return x - y;
            }
            throw bail();
          };
        case "_*_":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (a instanceof Long x && b instanceof Long y) {
              long hi = Math.multiplyHigh(x, y);
              long lo = x * y;
              if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
                return lo;
              }
              throw bail();
            }
            if (a instanceof Double x && b instanceof Double y) {
              return x * y;
            }
            throw bail();
          };
        case "_/_":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (a instanceof Long x && b instanceof Long y && y != 0
                && !(x == Long.MIN_VALUE && y == -1)) {
              return x / y;
            }
            if (a instanceof Double x && b instanceof Double y) {
              return x / y;
            }
            throw bail();
          };
        case "_%_":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (a instanceof Long x && b instanceof Long y && y != 0 && y != -1) {
              return x % y;
            }
            throw bail();
          };
        case "_[_]":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (a instanceof List<?> list && b instanceof Long i && i >= 0 && i < list.size()) {
              return list.get((int) (long) i);
            }
            if (a instanceof Map<?, ?> map && b instanceof String k) {
              Object v = map.get(k);
              if (v != null) {
                return v;
              }
            }
            throw bail();
          };
        case "@in":
          return f -> {
            Object a = l.eval(f);
            Object b = r.eval(f);
            if (b instanceof List<?> list) {
              for (Object item : list) {
                if (equal(a, item)) {
                  return true;
                }
              }
              return false;
            }
            if (b instanceof Map<?, ?> map && a instanceof String k) {
              return map.containsKey(k);
            }
            throw bail();
          };
        default:
          throw new Unsupported();
      }
    }
  }

  /**
   * A boolean operand. Left operands of {@code &&} and {@code ||} that are not booleans bail
   * too, although CEL would still absorb an error there when the other side decides: cel-java
   * then computes that.
   */
  private static boolean bool(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw bail();
  }

  private static Object fail() {
    throw bail();
  }

  private static Object size(Object v) {
    if (v instanceof String s) {
      return (long) s.codePointCount(0, s.length());
    }
    if (v instanceof List<?> l) {
      return (long) l.size();
    }
    if (v instanceof Map<?, ?> m) {
      return (long) m.size();
    }
    throw bail();
  }

  /** CEL equality of scalars; collections and mixed numeric types bail. */
  private static boolean equal(Object a, Object b) {
    if (a instanceof Long x) {
      if (b instanceof Long y) {
        return x.longValue() == y.longValue();
      }
      return notNumber(b);
    }
    if (a instanceof Double x) {
      if (b instanceof Double y) {
        if (x.isNaN() || y.isNaN()) {
          throw bail(); // cel-java finds a NaN equal to the very same boxed NaN
        }
        return x.doubleValue() == y.doubleValue();
      }
      return notNumber(b);
    }
    if (a instanceof String || a instanceof Boolean) {
      if (b instanceof Long || b instanceof Double) {
        return false;
      }
      if (b instanceof String || b instanceof Boolean || isNull(b)) {
        return a.equals(b);
      }
      throw bail();
    }
    if (isNull(a)) {
      if (b instanceof Long || b instanceof Double || b instanceof String
          || b instanceof Boolean) {
        return false;
      }
      if (a == b) {
        return true;
      }
    }
    throw bail();
  }

  /** False for the scalar non-numbers (a number never equals them); bails otherwise. */
  private static boolean notNumber(Object b) {
    if (b instanceof String || b instanceof Boolean || isNull(b)) {
      return false;
    }
    throw bail();
  }

  private static boolean isNull(Object v) {
    return v instanceof com.google.protobuf.NullValue
        || v instanceof dev.cel.common.values.NullValue;
  }

  private static int compare(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      // CEL's ordering of doubles is IEEE's: NaN is neither less, equal nor greater
      double p = x;
      double q = y;
      if (p < q) {
        return -1;
      }
      if (p > q) {
        return 1;
      }
      if (p == q) {
        return 0;
      }
    }
    throw bail();
  }

  private static Object add(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      long s = x + y;
      if (((x ^ s) & (y ^ s)) < 0) {
        throw bail();
      }
      return s;
    }
    if (a instanceof String x && b instanceof String y) {
      return x.concat(y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return x + y;
    }
    if (a instanceof List<?> x && b instanceof List<?> y
        && !(x instanceof KubeLists.SetList) && !(x instanceof KubeLists.MapList)) {
      List<Object> out = new ArrayList<>(x.size() + y.size());
      out.addAll(x);
      out.addAll(y);
      return Collections.unmodifiableList(out);
    }
    throw bail();
  }
}
