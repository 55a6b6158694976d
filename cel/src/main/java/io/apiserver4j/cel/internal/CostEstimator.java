/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import io.apiserver4j.cel.CelObjectType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Static cost estimation of a checked expression: cel-go's {@code checker/cost.go} walk with
 * Kubernetes' library estimators ({@code k8s.io/apiserver/pkg/cel/library/cost.go}) and kube's
 * schema size estimator (apiextensions' {@code sizeEstimator}: sizes from the path through the
 * variable's declared type). Variables are declared {@code dyn} in our environment, so the types
 * kube's typed declarations would give are inferred here from the {@link CelObjectType}s.
 * Not thread-safe; one instance per estimate.
 */
final class CostEstimator {
  static final double STRING_TRAVERSAL = 0.1;
  static final double REGEX_LENGTH = 0.25;
  static final long LIST_CREATE = 10;
  static final long MAP_CREATE = 30;
  static final long STRUCT_CREATE = 40;

  /** Kinds the estimate distinguishes (cel-go's {@code types.Kind}, as far as costs care). */
  enum Kind { DYN, OBJECT, MAP, LIST, STRING, BYTES, INT, UINT, DOUBLE, BOOL, DURATION,
    TIMESTAMP, NULL, OPAQUE, OPTIONAL, TYPE_PARAM, OTHER }

  /** A node's type: kind, element (list items, map values, optional value), name, schema. */
  record NodeType(Kind kind, NodeType elem, String name, CelObjectType schema) {
    static final NodeType DYN = new NodeType(Kind.DYN, null, "dyn", null);
    static final NodeType STRING = new NodeType(Kind.STRING, null, "string", null);
    static final NodeType INT = new NodeType(Kind.INT, null, "int", null);

    boolean scalar() {
      return switch (kind) {
        case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
        case OPTIONAL -> elem != null && elem.scalar();
        default -> false;
      };
    }

    boolean sameAs(NodeType o) {
      return kind == o.kind && name.equals(o.name);
    }
  }

  private record EntrySize(Kind container, CostRange key, CostRange val) {
    EntrySize union(EntrySize o) {
      return o == null ? null : new EntrySize(container, key.union(o.key), val.union(o.val));
    }
  }

  private record LocalVar(List<String> path, CostRange size, EntrySize entry, NodeType type) {}

  private final CelAbstractSyntaxTree ast;
  private final Map<String, CelObjectType> types;
  /** Variables whose every string, list and map is known to be at most {@link #extent} long. */
  private final java.util.Set<String> bounded;
  private final long extent;
  private final Map<Long, List<String>> paths = new HashMap<>();
  private final Map<Long, CostRange> sizes = new HashMap<>();
  private final Map<Long, EntrySize> entrySizes = new HashMap<>();
  private final Map<Long, NodeType> nodeTypes = new HashMap<>();
  private final Map<String, Deque<LocalVar>> locals = new HashMap<>();
  private final KubeLibraryCosts library = new KubeLibraryCosts(this::sizeOf);

  private CostEstimator(CelAbstractSyntaxTree ast, Map<String, CelObjectType> types,
      java.util.Set<String> bounded, long extent) {
    this.ast = ast;
    this.types = types;
    this.bounded = bounded;
    this.extent = extent;
  }

  /** The cost range of {@code ast}, with {@code types} the declared types of variables. */
  static CostRange estimate(CelAbstractSyntaxTree ast, Map<String, CelObjectType> types) {
    return new CostEstimator(ast, types, java.util.Set.of(), 0).cost(ast.getExpr());
  }

  /**
   * The cost range of {@code ast} when every string, list and map reachable from the variables
   * {@code bounded} has at most {@code extent} characters or elements: an upper bound of the
   * runtime cost of an evaluation on such values, sizes of derived values estimated as usual.
   */
  static CostRange estimate(CelAbstractSyntaxTree ast, Map<String, CelObjectType> types,
      java.util.Set<String> bounded, long extent) {
    return new CostEstimator(ast, types, bounded, extent).cost(ast.getExpr());
  }

  private CostRange cost(CelExpr e) {
    return switch (e.exprKind().getKind()) {
      case CONSTANT -> CostRange.ZERO;
      case IDENT -> costIdent(e);
      case SELECT -> costSelect(e);
      case CALL -> costCall(e);
      case LIST -> costList(e);
      case MAP -> costMap(e);
      case STRUCT -> costStruct(e);
      case COMPREHENSION -> isBind(e) ? costBind(e) : costComprehension(e);
      default -> CostRange.ZERO;
    };
  }

  // --- types ------------------------------------------------------------------------------------

  private NodeType checkerType(CelExpr e) {
    return ast.getType(e.id()).map(CostEstimator::fromCel).orElse(NodeType.DYN);
  }

  static NodeType fromCel(CelType t) {
    CelKind k = t.kind();
    switch (k) {
      case LIST:
        return new NodeType(Kind.LIST, t.parameters().isEmpty() ? null
            : fromCel(t.parameters().get(0)), t.name(), null);
      case MAP:
        return new NodeType(Kind.MAP, t.parameters().size() < 2 ? null
            : fromCel(t.parameters().get(1)), t.name(), null);
      case OPAQUE:
        if (t.name().equals("optional_type") && !t.parameters().isEmpty()) {
          return new NodeType(Kind.OPTIONAL, fromCel(t.parameters().get(0)), t.name(), null);
        }
        return new NodeType(Kind.OPAQUE, null, t.name(), null);
      default:
        return new NodeType(kindOf(k), null, t.name(), null);
    }
  }

  private static Kind kindOf(CelKind k) {
    return switch (k) {
      case DYN, ANY -> Kind.DYN;
      case BOOL -> Kind.BOOL;
      case BYTES -> Kind.BYTES;
      case DOUBLE -> Kind.DOUBLE;
      case DURATION -> Kind.DURATION;
      case INT -> Kind.INT;
      case UINT -> Kind.UINT;
      case STRING -> Kind.STRING;
      case TIMESTAMP -> Kind.TIMESTAMP;
      case NULL_TYPE -> Kind.NULL;
      case STRUCT -> Kind.OBJECT;
      case TYPE_PARAM -> Kind.TYPE_PARAM;
      default -> Kind.OTHER;
    };
  }

  static NodeType fromSchema(CelObjectType t) {
    Kind kind = switch (t.kind()) {
      case DYN -> Kind.DYN;
      case OBJECT -> Kind.OBJECT;
      case MAP -> Kind.MAP;
      case LIST -> Kind.LIST;
      case STRING -> Kind.STRING;
      case BYTES -> Kind.BYTES;
      case INT -> Kind.INT;
      case DOUBLE -> Kind.DOUBLE;
      case BOOL -> Kind.BOOL;
      case DURATION -> Kind.DURATION;
      case TIMESTAMP -> Kind.TIMESTAMP;
    };
    NodeType elem = (kind == Kind.LIST || kind == Kind.MAP)
        ? t.element().map(CostEstimator::fromSchema).orElse(null) : null;
    return new NodeType(kind, elem, kind.name().toLowerCase(java.util.Locale.ROOT), t);
  }

  /** The type kube's typed checker would give {@code e}: from the schema where we know it. */
  private NodeType type(CelExpr e) {
    NodeType known = nodeTypes.get(e.id());
    if (known != null) {
      return known;
    }
    NodeType t = inferType(e);
    nodeTypes.put(e.id(), t);
    return t;
  }

  private NodeType inferType(CelExpr e) {
    NodeType checked = checkerType(e);
    switch (e.exprKind().getKind()) {
      case IDENT: {
        LocalVar v = peek(e.ident().name());
        if (v != null && v.type() != null) {
          return v.type().kind() == Kind.DYN ? checked : v.type();
        }
        CelObjectType declared = v == null ? types.get(e.ident().name()) : null;
        if (declared != null) {
          NodeType t = fromSchema(declared);
          if (checked.kind() == Kind.OPTIONAL) {
            return new NodeType(Kind.OPTIONAL, t, "optional_type", null);
          }
          return t.kind() == Kind.DYN ? checked : t;
        }
        return checked;
      }
      case SELECT: {
        if (e.select().testOnly()) {
          return checked;
        }
        NodeType operand = type(e.select().operand());
        if (operand.kind() == Kind.OBJECT && operand.schema() != null) {
          return operand.schema().field(e.select().field()).map(CostEstimator::fromSchema)
              .filter(t -> t.kind() != Kind.DYN).orElse(checked);
        }
        if (operand.kind() == Kind.MAP && operand.elem() != null
            && operand.elem().kind() != Kind.DYN) {
          return operand.elem();
        }
        return checked;
      }
      case CALL: {
        String fn = e.call().function();
        if (fn.equals("_[_]") && e.call().args().size() == 2) {
          NodeType container = type(e.call().args().get(0));
          if ((container.kind() == Kind.LIST || container.kind() == Kind.MAP)
              && container.elem() != null && container.elem().kind() != Kind.DYN) {
            return container.elem();
          }
        }
        if (fn.equals("dyn") && e.call().args().size() == 1) {
          return type(e.call().args().get(0));
        }
        return checked;
      }
      default:
        return checked;
    }
  }

  // --- paths, sizes -----------------------------------------------------------------------------

  private LocalVar peek(String name) {
    Deque<LocalVar> d = locals.get(name);
    return d == null || d.isEmpty() ? null : d.peek();
  }

  private void push(String name, LocalVar v) {
    locals.computeIfAbsent(name, k -> new ArrayDeque<>()).push(v);
  }

  private void pop(String name) {
    Deque<LocalVar> d = locals.get(name);
    if (d != null && !d.isEmpty()) {
      d.pop();
    }
  }

  private List<String> path(CelExpr e) {
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null) {
        return v.path();
      }
    }
    return paths.getOrDefault(e.id(), List.of());
  }

  static List<String> append(List<String> path, String element) {
    List<String> out = new ArrayList<>(path.size() + 1);
    out.addAll(path);
    out.add(element);
    return out;
  }

  private static boolean isAccumulator(String name) {
    return name.equals("__result__") || name.equals("@result");
  }

  /** The path handed to the size estimator: none through accumulators. */
  private List<String> nodePath(CelExpr e) {
    List<String> p = path(e);
    return !p.isEmpty() && isAccumulator(p.get(0)) ? List.of() : p;
  }

  /**
   * kube's schema size estimator: {0, MaxElements} of the type at the path; for a path into a
   * variable of known extent, at most that extent.
   */
  private CostRange estimateSize(List<String> path) {
    if (path.isEmpty()) {
      return null;
    }
    CostRange declared = schemaSize(path);
    if (!bounded.contains(path.get(0))) {
      return declared;
    }
    return declared == null || declared.max() > extent ? new CostRange(0, extent) : declared;
  }

  private CostRange schemaSize(List<String> path) {
    CelObjectType current = types.get(path.get(0));
    if (current == null) {
      // kube's sizeEstimator drops the path's first element unseen and starts at self: an
      // iteration over a computed list ((has(self.a) ? self.a : []).exists(x, ...)), whose
      // path is just @items, is sized as self
      current = types.get("self");
    }
    if (current == null) {
      return null;
    }
    boolean mapKey = false;
    for (String name : path.subList(1, path.size())) {
      if (mapKey) {
        return null;
      }
      switch (name) {
        case "@items", "@values" -> {
          if (current.kind() != CelObjectType.ValueKind.LIST
              && current.kind() != CelObjectType.ValueKind.MAP) {
            return null;
          }
          CelObjectType next = current.element().orElse(null);
          if (next == null) {
            return null;
          }
          current = next;
        }
        case "@keys" -> {
          if (current.kind() != CelObjectType.ValueKind.MAP) {
            return null;
          }
          mapKey = true; // kube's map keys are its shared string type: no size bound recorded
        }
        default -> {
          if (current.kind() != CelObjectType.ValueKind.OBJECT) {
            return null;
          }
          CelObjectType next = current.field(name).orElse(null);
          if (next == null) {
            return null;
          }
          current = next;
        }
      }
    }
    if (mapKey) {
      return CostRange.ZERO;
    }
    OptionalLong max = current.maxElements();
    return max.isPresent() ? new CostRange(0, max.getAsLong()) : null;
  }

  private CostRange computeSize(CelExpr e) {
    CostRange known = sizes.get(e.id());
    if (known != null) {
      return known;
    }
    CostRange literal = exprSize(e);
    if (literal != null) {
      return literal;
    }
    CostRange estimated = estimateSize(path(e));
    if (estimated != null) {
      sizes.put(e.id(), estimated);
      return estimated;
    }
    if (type(e).scalar()) {
      return CostRange.ONE;
    }
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null && v.size() != null) {
        return v.size();
      }
    }
    return null;
  }

  private CostRange sizeOrUnknown(CelExpr e) {
    CostRange s = computeSize(e);
    return s == null ? CostRange.UNKNOWN : s;
  }

  private static CostRange exprSize(CelExpr e) {
    switch (e.exprKind().getKind()) {
      case CONSTANT: {
        CelConstant c = e.constant();
        return switch (c.getKind()) {
          case STRING_VALUE -> CostRange.fixed(c.stringValue().codePointCount(0,
              c.stringValue().length()));
          case BYTES_VALUE -> CostRange.fixed(c.bytesValue().size());
          case BOOLEAN_VALUE, DOUBLE_VALUE, DURATION_VALUE, INT64_VALUE, TIMESTAMP_VALUE,
              UINT64_VALUE, NULL_VALUE -> CostRange.ONE;
          default -> null;
        };
      }
      case LIST:
        return CostRange.fixed(e.list().elements().size());
      case MAP:
        return CostRange.fixed(e.map().entries().size());
      default:
        return null;
    }
  }

  private EntrySize entrySize(CelExpr e) {
    EntrySize known = entrySizes.get(e.id());
    if (known != null) {
      return known;
    }
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null) {
        return v.entry();
      }
    }
    return null;
  }

  private void setSize(CelExpr e, CostRange size) {
    if (size != null) {
      sizes.put(e.id(), size);
    }
  }

  private void setEntrySize(CelExpr e, EntrySize size) {
    if (size != null) {
      entrySizes.put(e.id(), size);
    }
  }

  // --- expression kinds -------------------------------------------------------------------------

  private CostRange costIdent(CelExpr e) {
    String name = e.ident().name();
    LocalVar v = peek(name);
    paths.put(e.id(), v != null ? v.path() : List.of(name));
    return CostRange.ONE;
  }

  private CostRange costSelect(CelExpr e) {
    CelExpr operand = e.select().operand();
    if (e.select().testOnly()) {
      // kube estimates presence tests without cost (PresenceTestHasCost(false)); a bound for
      // the runtime counts them, as the runtime does
      return bounded.isEmpty() ? cost(operand) : cost(operand).add(CostRange.ONE);
    }
    CostRange sum = cost(operand);
    Kind k = type(operand).kind();
    // a bound for the runtime counts selections from dyn values too, as the runtime does
    if (k == Kind.MAP || k == Kind.OBJECT || k == Kind.TYPE_PARAM
        || (!bounded.isEmpty() && k == Kind.DYN)) {
      sum = sum.add(CostRange.ONE);
    }
    paths.put(e.id(), append(path(operand), e.select().field()));
    return sum;
  }

  private CostRange costList(CelExpr e) {
    CostRange sum = CostRange.ZERO;
    List<CelExpr> elements = e.list().elements();
    CostRange item = new CostRange(elements.isEmpty() ? 0 : CostRange.UNBOUNDED, 0);
    for (CelExpr el : elements) {
      sum = sum.add(cost(el));
      item = item.union(sizeOrUnknown(el));
    }
    setEntrySize(e, new EntrySize(Kind.LIST, CostRange.ONE, item));
    return sum.add(CostRange.fixed(LIST_CREATE));
  }

  private CostRange costMap(CelExpr e) {
    CostRange sum = CostRange.ZERO;
    boolean empty = e.map().entries().isEmpty();
    CostRange key = new CostRange(empty ? 0 : CostRange.UNBOUNDED, 0);
    CostRange val = key;
    for (CelExpr.CelMap.Entry entry : e.map().entries()) {
      sum = sum.add(cost(entry.key())).add(cost(entry.value()));
      key = key.union(sizeOrUnknown(entry.key()));
      val = val.union(sizeOrUnknown(entry.value()));
    }
    setEntrySize(e, new EntrySize(Kind.MAP, key, val));
    return sum.add(CostRange.fixed(MAP_CREATE));
  }

  private CostRange costStruct(CelExpr e) {
    CostRange sum = CostRange.ZERO;
    for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
      sum = sum.add(cost(entry.value()));
    }
    return sum.add(CostRange.fixed(STRUCT_CREATE));
  }

  private boolean isBind(CelExpr e) {
    CelExpr.CelComprehension c = e.comprehension();
    CelExpr range = c.iterRange();
    CelExpr cond = c.loopCondition();
    return range.exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
        && range.list().elements().isEmpty()
        && cond.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && cond.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
        && !cond.constant().booleanValue()
        && !isAccumulator(c.accuVar());
  }

  private void pushLocal(String name, CelExpr init) {
    push(name, new LocalVar(path(init), computeSize(init), entrySize(init), type(init)));
  }

  private CostRange costBind(CelExpr e) {
    CelExpr.CelComprehension c = e.comprehension();
    CostRange sum = cost(c.iterRange()).add(cost(c.accuInit()));
    pushLocal(c.accuVar(), c.accuInit());
    sum = sum.add(cost(c.result()));
    pop(c.accuVar());
    setSize(e, computeSize(c.result()));
    setEntrySize(e, entrySize(c.result()));
    return sum;
  }

  private Kind containerKind(CelExpr range, EntrySize entry) {
    if (entry != null) {
      return entry.container();
    }
    return type(range).kind();
  }

  private CostRange costComprehension(CelExpr e) {
    CelExpr.CelComprehension c = e.comprehension();
    CelExpr range = c.iterRange();
    CostRange sum = cost(range).add(cost(c.accuInit()));
    pushLocal(c.accuVar(), c.accuInit());
    EntrySize entry = entrySize(range);
    Kind container = containerKind(range, entry);
    NodeType rangeType = type(range);
    NodeType elemType = rangeType.elem() == null ? NodeType.DYN : rangeType.elem();
    List<String> rangePath = path(range);
    boolean twoVars = c.iterVar2() != null && !c.iterVar2().isEmpty();
    if (twoVars) {
      push(c.iterVar(), new LocalVar(append(rangePath,
          container == Kind.LIST ? "@indices" : "@keys"), entry == null ? null : entry.key(),
          null, container == Kind.LIST ? NodeType.INT
              : container == Kind.MAP ? NodeType.STRING : NodeType.DYN));
      push(c.iterVar2(), new LocalVar(append(rangePath,
          container == Kind.LIST ? "@items" : "@values"), entry == null ? null : entry.val(),
          null, elemType));
    } else if (container == Kind.LIST) {
      push(c.iterVar(), new LocalVar(append(rangePath, "@items"),
          entry == null ? null : entry.val(), null, elemType));
    } else {
      push(c.iterVar(), new LocalVar(append(rangePath, "@keys"),
          entry == null ? null : entry.key(), null,
          container == Kind.MAP ? NodeType.STRING : NodeType.DYN));
    }
    CostRange loop = cost(c.loopCondition());
    CostRange step = cost(c.loopStep());
    pop(c.iterVar());
    if (twoVars) {
      pop(c.iterVar2());
    }
    sum = sum.add(cost(c.result()));
    pop(c.accuVar());
    CostRange count = sizeOrUnknown(range);
    sum = sum.add(count.multiply(step.add(loop)));
    switch (c.accuInit().exprKind().getKind()) {
      case CONSTANT -> setSize(e, computeSize(c.accuInit()));
      case LIST, MAP -> {
        setSize(e, count);
        setEntrySize(e, entrySize(c.loopStep()));
      }
      default -> { }
    }
    return sum;
  }

  // --- calls ------------------------------------------------------------------------------------

  /**
   * An argument or target as the function estimators see it: its expression (none for a list's
   * element), its path from a variable, its type, and its size when the walk computed one.
   */
  record Node(CelExpr expr, List<String> path, NodeType type, CostRange computed) {}

  private Node node(CelExpr e) {
    return new Node(e, nodePath(e), type(e), computeSize(e));
  }

  private CostRange sizeOf(Node n) {
    if (n.computed() != null) {
      return n.computed();
    }
    CostRange s = estimateSize(n.path());
    return s == null ? CostRange.UNKNOWN : s;
  }

  /** Functions whose estimates bound the runtime cost on dyn operands too. */
  private static final java.util.Set<String> DYN_BOUNDED = java.util.Set.of(
      "startsWith", "endsWith", "contains", "matches", "split", "size", "_==_", "_!=_", "_<_",
      "_<=_", "_>_", "_>=_", "_&&_", "_||_", "!_", "_?_:_", "_+_", "@in", "_[_]",
      "@not_strictly_false");

  private CostRange costCall(CelExpr e) {
    CelExpr.CelCall call = e.call();
    if (call.function().equals("dyn") && call.args().size() == 1) {
      CelExpr arg = call.args().get(0);
      CostRange argCost = cost(arg);
      setSize(e, computeSize(arg));
      setEntrySize(e, entrySize(arg));
      return CostRange.ONE.add(argCost);
    }
    List<CelExpr> args = call.args();
    List<CostRange> argCosts = new ArrayList<>(args.size());
    List<Node> argNodes = new ArrayList<>(args.size());
    for (CelExpr arg : args) {
      argCosts.add(cost(arg));
      argNodes.add(node(arg));
    }
    List<String> overloads = ast.getReference(e.id()).map(CelReference::overloadIds)
        .map(l -> (List<String>) l).orElse(List.of());
    if (overloads.isEmpty()) {
      // unresolved (a dyn operand): no estimate, so a bound for the runtime has none either
      return bounded.isEmpty() ? CostRange.ZERO : new CostRange(0, CostRange.UNBOUNDED);
    }
    if (!bounded.isEmpty() && !DYN_BOUNDED.contains(call.function())
        && (call.target().map(t -> type(t).kind() == Kind.DYN).orElse(false)
            || args.stream().anyMatch(a -> type(a).kind() == Kind.DYN))) {
      // the library estimators need typed operands; on dyn ones only these are known to bound
      // the runtime cost (CelBoundedEstimateTest)
      return new CostRange(0, CostRange.UNBOUNDED);
    }
    CostRange sum = CostRange.ZERO;
    Node target = null;
    if (call.target().isPresent()) {
      sum = sum.add(cost(call.target().get()));
      target = node(call.target().get());
    }
    overloads = narrow(call.function(), overloads, target, argNodes);
    CostRange fnCost = new CostRange(CostRange.UNBOUNDED, 0);
    CostRange resultSize = null;
    for (String overload : overloads) {
      Estimate est = functionCost(e, call.function(), overload, target, argNodes, argCosts);
      fnCost = fnCost.union(est.cost());
      if (est.resultSize() != null) {
        resultSize = resultSize == null ? est.resultSize() : resultSize.union(est.resultSize());
      }
      if ((overload.equals("index_list") || overload.equals("index_map")) && !args.isEmpty()) {
        EntrySize entry = entrySize(args.get(0));
        resultSize = entry == null ? null : entry.val();
        paths.put(e.id(), append(path(args.get(0)),
            overload.equals("index_list") ? "@items" : "@values"));
      }
      if (resultSize == null) {
        resultSize = computeSize(e);
      }
    }
    setSize(e, resultSize);
    return sum.add(fnCost);
  }

  /**
   * Our variables are {@code dyn}, so the checker keeps every overload a call could take; kube's
   * typed checker picks the one the schema types select. Keep the overloads whose operand type
   * matches the inferred one.
   */
  private static List<String> narrow(String function, List<String> overloads, Node target,
      List<Node> args) {
    if (overloads.size() < 2) {
      return overloads;
    }
    Node operand;
    if (function.equals("@in")) {
      operand = args.size() > 1 ? args.get(1) : null;
    } else {
      operand = target != null ? target : args.isEmpty() ? null : args.get(0);
    }
    if (operand == null) {
      return overloads;
    }
    String token = switch (operand.type().kind()) {
      case STRING -> "string";
      case BYTES -> "bytes";
      case LIST -> "list";
      case MAP -> "map";
      case INT -> "int64";
      case UINT -> "uint64";
      case DOUBLE -> "double";
      case TIMESTAMP -> "timestamp";
      case DURATION -> "duration";
      case BOOL -> "bool";
      default -> null;
    };
    if (token == null) {
      return overloads;
    }
    List<String> kept = new ArrayList<>();
    for (String o : overloads) {
      String first = firstTypeToken(o);
      if (first == null || first.equals(token)) {
        kept.add(o);
      }
    }
    return kept.isEmpty() ? overloads : kept;
  }

  private static final List<String> TYPE_TOKENS = List.of("string", "bytes", "list", "map",
      "int64", "uint64", "double", "timestamp", "duration", "bool");

  private static String firstTypeToken(String overload) {
    for (String part : overload.split("_")) {
      if (TYPE_TOKENS.contains(part)) {
        return part;
      }
    }
    return null;
  }

  /** A call's cost and, where the estimator knows it, the size of its result. */
  record Estimate(CostRange cost, CostRange resultSize) {}

  private static CostRange sum(List<CostRange> costs) {
    CostRange s = CostRange.ZERO;
    for (CostRange c : costs) {
      s = s.add(c);
    }
    return s;
  }

  private Estimate functionCost(CelExpr e, String function, String overload, Node target,
      List<Node> args, List<CostRange> argCosts) {
    Estimate sets = library.setsCost(overload, args);
    if (sets != null) {
      return new Estimate(sets.cost().add(sum(argCosts)), null);
    }
    Estimate kube = library.kubeCallCost(function, overload, target, args);
    if (kube != null) {
      return new Estimate(kube.cost().add(sum(argCosts)), kube.resultSize());
    }
    return standardCost(e, function, overload, target, args, argCosts);
  }

  /** cel-go's own estimates of the standard functions (checker/cost.go functionCost). */
  private Estimate standardCost(CelExpr e, String function, String overload, Node target,
      List<Node> args, List<CostRange> argCosts) {
    CostRange argSum = sum(argCosts);
    switch (overload) {
      case "string_format":
        if (target != null) {
          return new Estimate(sizeOf(target).multiplyByCostFactor(STRING_TRAVERSAL)
              .add(argSum), null);
        }
        break;
      case "string_to_bytes":
        if (args.size() == 1) {
          CostRange sz = sizeOf(args.get(0));
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL).add(argSum),
              new CostRange(sz.min(), CostRange.multiply(sz.max(), 4)));
        }
        break;
      case "bytes_to_string":
        if (args.size() == 1) {
          CostRange sz = sizeOf(args.get(0));
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL).add(argSum),
              new CostRange(sz.min() / 4, sz.max()));
        }
        break;
      case "strings_quote":
        if (args.size() == 1) {
          CostRange sz = sizeOf(args.get(0));
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL).add(argSum),
              new CostRange(CostRange.add(sz.min(), 2),
                  CostRange.add(CostRange.multiply(sz.max(), 2), 2)));
        }
        break;
      case "starts_with_string", "ends_with_string":
        if (args.size() == 1) {
          return new Estimate(sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL)
              .add(argSum), null);
        }
        break;
      case "in_list":
        if (args.size() == 2) {
          return new Estimate(sizeOf(args.get(1)).multiplyByCostFactor(1).add(argSum), null);
        }
        break;
      case "matches_string":
        if (target != null && args.size() == 1) {
          CostRange str = sizeOf(target).add(CostRange.ONE)
              .multiplyByCostFactor(STRING_TRAVERSAL);
          CostRange regex = sizeOf(args.get(0)).multiplyByCostFactor(REGEX_LENGTH);
          return new Estimate(str.multiply(regex).add(argSum), null);
        }
        break;
      case "contains_string":
        if (target != null && args.size() == 1) {
          CostRange str = sizeOf(target).multiplyByCostFactor(STRING_TRAVERSAL);
          CostRange sub = sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL);
          return new Estimate(str.multiply(sub).add(argSum), null);
        }
        break;
      case "logical_or", "logical_and": {
        CostRange lhs = argCosts.get(0);
        CostRange rhs = argCosts.get(1);
        return new Estimate(new CostRange(lhs.min(), lhs.add(rhs).max()), null);
      }
      case "conditional": {
        CostRange size = sizeOf(args.get(1)).union(sizeOf(args.get(2)));
        EntrySize a = entrySize(args.get(1).expr());
        setEntrySize(e, a == null ? null : a.union(entrySize(args.get(2).expr())));
        return new Estimate(argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2))), size);
      }
      case "add_string", "add_bytes", "add_list":
        if (args.size() == 2) {
          CostRange result = sizeOf(args.get(0)).add(sizeOf(args.get(1)));
          EntrySize l = entrySize(args.get(0).expr());
          EntrySize r = entrySize(args.get(1).expr());
          if (l != null && r != null) {
            setEntrySize(e, l.union(r));
          }
          if (overload.equals("add_list")) {
            return new Estimate(CostRange.ONE.add(argSum), result);
          }
          return new Estimate(result.multiplyByCostFactor(STRING_TRAVERSAL).add(argSum), result);
        }
        break;
      case "less_string", "greater_string", "less_equals_string", "greater_equals_string",
          "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes", "equals",
          "not_equals": {
        CostRange lhs = sizeOf(args.get(0));
        CostRange rhs = sizeOf(args.get(1));
        long smallestMax = Math.min(lhs.max(), rhs.max());
        return new Estimate(new CostRange(smallestMax > 0 ? 1 : 0, smallestMax)
            .multiplyByCostFactor(STRING_TRAVERSAL).add(argSum), null);
      }
      default:
        break;
    }
    return new Estimate(CostRange.ONE.add(argSum), null);
  }
}
