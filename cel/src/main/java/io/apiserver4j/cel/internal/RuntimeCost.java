/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationListener;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runtime cost accounting as cel-go's {@code interpreter/runtimecost.go} with Kubernetes'
 * {@code library.CostEstimator.CallCost}: each identifier or field access costs one, list, map
 * and object construction their base costs, calls by their function's cost model over the actual
 * argument sizes; {@code &&}, {@code ||} and {@code ?:} cost only their operands. Built once per
 * program from the checked AST; a {@link Tracker} counts one evaluation.
 */
final class RuntimeCost {
  /** Thrown by a tracker past its limit; the program reports cel-go's cancellation. */
  static final class LimitExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitExceeded() {
      super("operation cancelled: actual cost limit exceeded", null, false, false);
    }
  }

  private enum Step { FREE, ONE, TWO, LIST, MAP, STRUCT, CALL }

  /** How each node is charged, by expression id. */
  private final Map<Long, Step> steps = new HashMap<>();
  private final Map<Long, CelExpr> calls = new HashMap<>();
  private final Map<Long, List<String>> overloads = new HashMap<>();
  private final Map<Long, Long> parents = new HashMap<>();
  private final long root;
  // The same, by expression id (ids are small and dense): the evaluation listener's lookups.
  private final Step[] stepOf;
  private final CelExpr[] callOf;
  private final int[] parentOf;

  RuntimeCost(CelAbstractSyntaxTree ast) {
    root = ast.getExpr().id();
    index(ast, ast.getExpr());
    parents(ast.getExpr());
    long max = root;
    for (long id : parents.keySet()) {
      max = Math.max(max, id);
    }
    stepOf = new Step[(int) max + 1];
    callOf = new CelExpr[(int) max + 1];
    parentOf = new int[(int) max + 1];
    java.util.Arrays.fill(parentOf, -1);
    steps.forEach((id, step) -> stepOf[id.intValue()] = step);
    calls.forEach((id, call) -> callOf[id.intValue()] = call);
    parents.forEach((id, parent) -> parentOf[id.intValue()] = parent.intValue());
  }

  private void parents(CelExpr e) {
    java.util.List<CelExpr> children = new java.util.ArrayList<>();
    switch (e.exprKind().getKind()) {
      case SELECT -> children.add(e.select().operand());
      case LIST -> children.addAll(e.list().elements());
      case MAP -> e.map().entries().forEach(x -> {
        children.add(x.key());
        children.add(x.value());
      });
      case STRUCT -> e.struct().entries().forEach(x -> children.add(x.value()));
      case CALL -> {
        e.call().target().ifPresent(children::add);
        children.addAll(e.call().args());
      }
      case COMPREHENSION -> {
        CelExpr.CelComprehension c = e.comprehension();
        children.addAll(List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(),
            c.result()));
      }
      default -> { }
    }
    for (CelExpr c : children) {
      parents.put(c.id(), e.id());
      parents(c);
    }
  }

  /**
   * Whether selecting from or indexing {@code operand} makes cel-go wrap it in a relative
   * attribute, which costs one more: the operand is not itself an attribute (a variable, or a
   * selection or index of one).
   */
  private static boolean relative(CelExpr operand) {
    switch (operand.exprKind().getKind()) {
      case IDENT:
        return false;
      case SELECT:
        return operand.select().testOnly() || relative(operand.select().operand());
      case CALL:
        if (operand.call().function().equals("_[_]") && operand.call().args().size() == 2) {
          return relative(operand.call().args().get(0));
        }
        return true;
      default:
        return true;
    }
  }

  private static final java.util.Set<String> CONVERSIONS = java.util.Set.of("bool", "bytes",
      "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint");

  /**
   * Whether cel-go's optimizer (kube evaluates with OptOptimize) folds {@code e} into a constant,
   * which then costs nothing: literals, lists and maps of constants, conversions of constants.
   */
  private static boolean folded(CelExpr e) {
    switch (e.exprKind().getKind()) {
      case CONSTANT:
        return true;
      case LIST:
        return e.list().elements().stream().allMatch(RuntimeCost::folded);
      case MAP:
        return e.map().entries().stream().allMatch(x -> folded(x.key()) && folded(x.value()));
      case CALL:
        return CONVERSIONS.contains(e.call().function()) && e.call().target().isEmpty()
            && e.call().args().size() == 1 && folded(e.call().args().get(0));
      default:
        return false;
    }
  }

  /** {@code x in [constants]}: cel-go's optimizer turns it into a set lookup without cost. */
  private static boolean setMembership(CelExpr e) {
    if (!e.call().function().equals("@in") || e.call().args().size() != 2) {
      return false;
    }
    CelExpr list = e.call().args().get(1);
    return list.exprKind().getKind() == CelExpr.ExprKind.Kind.LIST && folded(list)
        && list.list().elements().stream().allMatch(x ->
            x.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
            && x.constant().getKind() != dev.cel.common.ast.CelConstant.Kind.BYTES_VALUE);
  }

  private void index(CelAbstractSyntaxTree ast, CelExpr e) {
    if (folded(e)) {
      return;
    }
    switch (e.exprKind().getKind()) {
      case IDENT -> steps.put(e.id(), Step.ONE);
      case SELECT -> {
        // kube evaluates presence tests without cost (PresenceTestHasCost(false))
        steps.put(e.id(), e.select().testOnly() ? Step.FREE
            : relative(e.select().operand()) ? Step.TWO : Step.ONE);
        index(ast, e.select().operand());
      }
      case LIST -> {
        steps.put(e.id(), Step.LIST);
        e.list().elements().forEach(x -> index(ast, x));
      }
      case MAP -> {
        steps.put(e.id(), Step.MAP);
        e.map().entries().forEach(x -> {
          index(ast, x.key());
          index(ast, x.value());
        });
      }
      case STRUCT -> {
        steps.put(e.id(), Step.STRUCT);
        e.struct().entries().forEach(x -> index(ast, x.value()));
      }
      case CALL -> {
        String fn = e.call().function();
        boolean free = fn.equals("_&&_") || fn.equals("_||_") || fn.equals("_?_:_")
            || setMembership(e);
        if (fn.equals("_[_]") && e.call().args().size() == 2) {
          // cel-go plans an index as an attribute qualifier: one, one more on a relative one
          steps.put(e.id(), relative(e.call().args().get(0)) ? Step.TWO : Step.ONE);
        } else {
          steps.put(e.id(), free ? Step.FREE : Step.CALL);
        }
        if (!free) {
          calls.put(e.id(), e);
          overloads.put(e.id(), ast.getReference(e.id()).map(CelReference::overloadIds)
              .map(l -> (List<String>) l).orElse(List.of()));
        }
        e.call().target().ifPresent(x -> index(ast, x));
        e.call().args().forEach(x -> index(ast, x));
      }
      case COMPREHENSION -> {
        CelExpr.CelComprehension c = e.comprehension();
        index(ast, c.iterRange());
        index(ast, c.accuInit());
        index(ast, c.loopCondition());
        index(ast, c.loopStep());
        index(ast, c.result());
      }
      default -> { }
    }
  }

  Tracker tracker(long limit) {
    return new Tracker(limit);
  }

  /** Counts the cost of one evaluation; throws {@link LimitExceeded} past {@code limit}. */
  final class Tracker implements CelEvaluationListener {
    private final long limit;
    private final Object[] results = new Object[stepOf.length];
    private long cost;
    private int last = -1;

    Tracker(long limit) {
      this.limit = limit;
    }

    long cost() {
      return cost;
    }

    @Override
    public void callback(CelExpr expr, Object result) {
      int id = (int) expr.id();
      if (id >= 0 && id < results.length) {
        charge(id, result);
        results[id] = result;
        last = id;
      }
      if (cost > limit) {
        throw new LimitExceeded();
      }
    }

    private void charge(int id, Object result) {
      Step step = stepOf[id];
      if (step != null) {
        switch (step) {
          case ONE -> cost = CostRange.add(cost, 1);
          case TWO -> cost = CostRange.add(cost, 2);
          case LIST -> cost = CostRange.add(cost, CostEstimator.LIST_CREATE);
          case MAP -> cost = CostRange.add(cost, CostEstimator.MAP_CREATE);
          case STRUCT -> cost = CostRange.add(cost, CostEstimator.STRUCT_CREATE);
          case CALL -> cost = CostRange.add(cost, callCost(callOf[id], result));
          default -> { }
        }
      }
    }

    /**
     * The cost of an evaluation that failed: cel-go passes the error up as a value, charging
     * the failing step and each enclosing one; cel-java stops at the failure, so those are
     * charged here (the failing step is the parent of the last one that completed).
     */
    long failed() {
      int at = last < 0 ? (int) root : parentOf[last];
      while (at >= 0) {
        charge(at, null);
        at = parentOf[at];
      }
      return cost;
    }

    private Object result(long id) {
      return id >= 0 && id < results.length ? results[(int) id] : null;
    }

    private Object arg(CelExpr call, int i) {
      CelExpr.CelCall c = call.call();
      if (c.target().isPresent()) {
        return i == 0 ? result(c.target().get().id()) : result(c.args().get(i - 1).id());
      }
      return i < c.args().size() ? result(c.args().get(i).id()) : null;
    }

    private int argCount(CelExpr call) {
      return call.call().args().size() + (call.call().target().isPresent() ? 1 : 0);
    }

    private long callCost(CelExpr call, Object result) {
      String fn = call.call().function();
      int n = argCount(call);
      Long kube = kubeCallCost(fn, call, n, result);
      if (kube != null) {
        return kube;
      }
      Object a0 = n > 0 ? arg(call, 0) : null;
      Object a1 = n > 1 ? arg(call, 1) : null;
      switch (fn) {
        case "sets.contains", "sets.intersects":
          return 1 + CostRange.multiply(size(a0), size(a1));
        case "sets.equivalent":
          return 1 + (long) (CostRange.multiply(size(a0), size(a1)) * 2.0);
        case "startsWith", "endsWith", "format", "strings.quote":
          return ceil(size(a0) * CostEstimator.STRING_TRAVERSAL);
        case "bytes", "string":
          if ((fn.equals("bytes") && a0 instanceof String)
              || (fn.equals("string") && a0 instanceof CelByteString)) {
            return ceil(size(a0) * CostEstimator.STRING_TRAVERSAL);
          }
          return 1;
        case "@in":
          return a1 instanceof List<?> ? size(a1) : 1;
        case "_<_", "_>_", "_<=_", "_>=_":
          if (a0 instanceof String || a0 instanceof CelByteString) {
            return ceil(Math.min(size(a0), size(a1)) * CostEstimator.STRING_TRAVERSAL);
          }
          return 1;
        case "_==_", "_!=_":
          return ceil(Math.min(size(a0), size(a1)) * CostEstimator.STRING_TRAVERSAL);
        case "_+_":
          if (a0 instanceof String || a0 instanceof CelByteString) {
            return ceil((size(a0) + size(a1)) * CostEstimator.STRING_TRAVERSAL);
          }
          return 1;
        case "matches":
          if (a0 instanceof String && a1 instanceof String) {
            return ceil((1.0 + size(a0)) * CostEstimator.STRING_TRAVERSAL)
                * ceil(size(a1) * CostEstimator.REGEX_LENGTH);
          }
          return 1;
        case "contains":
          if (a0 instanceof String && a1 instanceof String) {
            return ceil(size(a0) * CostEstimator.STRING_TRAVERSAL)
                * ceil(size(a1) * CostEstimator.STRING_TRAVERSAL);
          }
          return 1;
        default:
          return 1;
      }
    }

    /** Kubernetes' {@code library.CostEstimator.CallCost}; null where it has no model. */
    private Long kubeCallCost(String fn, CelExpr call, int n, Object result) {
      switch (fn) {
        case "check":
          return 350000L;
        case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name",
            "allowed", "reason", "error", "errored":
          return 1L;
        case "fieldSelector", "labelSelector":
          if (n >= 2) {
            long len = size(arg(call, 1));
            return KubeLibraryCosts.selectorCost(CostRange.fixed(len)).max();
          }
          return null;
        case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
          return n > 0 ? traversal(arg(call, 0)) : 0L;
        case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey",
            "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
          return n >= 1 ? (Long) ceil(size(arg(call, 0)) * CostEstimator.STRING_TRAVERSAL) : null;
        case "replace", "split":
          return n >= 1 ? (Long) ceil(size(arg(call, 0)) * 2 * CostEstimator.STRING_TRAVERSAL)
              : null;
        case "join":
          return n >= 1 ? (Long) ceil(size(result) * 2 * CostEstimator.STRING_TRAVERSAL) : null;
        case "find", "findAll":
          if (n >= 2) {
            return ceil((1.0 + size(arg(call, 0))) * CostEstimator.STRING_TRAVERSAL)
                * ceil(size(arg(call, 1)) * CostEstimator.REGEX_LENGTH);
          }
          return null;
        case "ip":
          if (n >= 1) {
            if (overloadIs(call, "cidr_ip")) {
              return 1L;
            }
            return ceil(size(arg(call, 0)) * CostEstimator.STRING_TRAVERSAL);
          }
          return null;
        case "ip.isCanonical":
          return n >= 1 ? (Long) ceil(size(arg(call, 0)) * 2 * CostEstimator.STRING_TRAVERSAL)
              : null;
        case "masked", "prefixLength", "family", "isUnspecified", "isLoopback",
            "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "format.named",
            "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan",
            "isLessThan", "compareTo", "add", "sub", "major", "minor", "patch", "getScheme",
            "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
          return 1L;
        case "containsIP", "containsCIDR":
          if (n >= 2) {
            long cidr = size(arg(call, 0));
            long other = size(arg(call, 1));
            long c = ceil((cidr + cidr) * CostEstimator.STRING_TRAVERSAL);
            if (fn.equals("containsCIDR")) {
              c += ceil(cidr * CostEstimator.STRING_TRAVERSAL) + 1;
            }
            if (arg(call, 1) instanceof String) {
              c += ceil(other * CostEstimator.STRING_TRAVERSAL);
            }
            return c;
          }
          return null;
        case "validate":
          if (n >= 2) {
            long str = ceil((1.0 + size(arg(call, 1))) * CostEstimator.STRING_TRAVERSAL);
            long regex = ceil(128 * CostEstimator.REGEX_LENGTH);
            return str * regex;
          }
          return null;
        case "_==_":
          if (n == 2 && isKubeValue(arg(call, 0))) {
            return 1L;
          }
          return null;
        default:
          return null;
      }
    }

    private boolean overloadIs(CelExpr call, String id) {
      List<String> ids = overloads.get(call.id());
      return ids != null && ids.size() == 1 && ids.get(0).equals(id);
    }
  }

  /** Values of kube's library types, whose equality costs one. */
  private static boolean isKubeValue(Object v) {
    return v instanceof KubeLibraries.IpValue || v instanceof KubeLibraries.CidrValue
        || v instanceof KubeLibraries.UrlValue || v instanceof KubeLibraries.QuantityValue
        || v instanceof KubeLibraries.SemverValue || v instanceof KubeLibraries.FormatValue
        || v instanceof AuthzLibrary.AuthorizerValue || v instanceof AuthzLibrary.PathCheckValue
        || v instanceof AuthzLibrary.GroupCheckValue
        || v instanceof AuthzLibrary.ResourceCheckValue
        || v instanceof AuthzLibrary.DecisionValue;
  }

  private static long ceil(double v) {
    double r = Math.ceil(v);
    return r >= (double) Long.MAX_VALUE ? Long.MAX_VALUE : (long) r;
  }

  /** cel-go's {@code actualSize}: characters, bytes, items or entries; one for the rest. */
  static long size(Object v) {
    if (v instanceof String s) {
      return s.codePointCount(0, s.length());
    }
    if (v instanceof CelByteString b) {
      return b.size();
    }
    if (v instanceof com.google.protobuf.ByteString b) {
      return b.size();
    }
    if (v instanceof List<?> l) {
      return l.size();
    }
    if (v instanceof Map<?, ?> m) {
      return m.size();
    }
    if (v instanceof Optional<?> o && o.isPresent()) {
      return size(o.get());
    }
    return 1;
  }

  /** kube's {@code traversalCost}: a tenth per character, summed over containers. */
  static long traversal(Object v) {
    if (v instanceof String s) {
      return (long) (s.length() * CostEstimator.STRING_TRAVERSAL);
    }
    if (v instanceof CelByteString b) {
      return (long) (b.size() * CostEstimator.STRING_TRAVERSAL);
    }
    if (v instanceof List<?> l) {
      long c = 0;
      for (Object item : l) {
        c = CostRange.add(c, traversal(item));
      }
      return c;
    }
    if (v instanceof Map<?, ?> m) {
      long c = 0;
      for (Map.Entry<?, ?> en : m.entrySet()) {
        c = CostRange.add(c, CostRange.add(traversal(en.getKey()), traversal(en.getValue())));
      }
      return c;
    }
    return 1;
  }
}
