/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.UnsignedLong;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The Kubernetes CEL environment on cel-java ({@code dev.cel:cel}): one {@link Cel} per set of
 * variable names, built once, with kube's libraries added as function declarations and
 * bindings. Values cross the boundary as plain Java objects (Long, Double, String, Boolean,
 * List, Map, NullValue).
 */
public final class KubeEnvironment {
  private static final Map<List<String>, Cel> ENVIRONMENTS = new ConcurrentHashMap<>();
  private static final Map<String, Object> REGEXES = new ConcurrentHashMap<>();
  private static final int MAX_CACHED_REGEXES = 1024;

  /** The most iterations one comprehension may run. */
  public static final int MAX_ITERATIONS = 1_000_000;

  private KubeEnvironment() {}

  /** A compiled expression. */
  public static final class Compiled {
    private final CelRuntime.Program program;
    /** The closure translation of the expression, when it is in the fast path's subset. */
    private final FastPath fast;
    private final Set<String> identifiers;
    private final Map<String, io.apiserver4j.cel.CelObjectType> types;
    private final dev.cel.common.types.CelType resultType;

    private final CelAbstractSyntaxTree ast;
    private volatile io.apiserver4j.cel.CelCostEstimate estimate;
    private volatile RuntimeCost runtimeCost;

    Compiled(CelRuntime.Program program, FastPath fast, Set<String> identifiers,
        Map<String, io.apiserver4j.cel.CelObjectType> types,
        dev.cel.common.types.CelType resultType, CelAbstractSyntaxTree ast) {
      this.program = program;
      this.fast = fast;
      this.identifiers = identifiers;
      this.types = Map.copyOf(types);
      this.resultType = resultType;
      this.ast = ast;
    }

    /**
     * The static cost range when every string, list and map of the variables {@code bounded}
     * is at most {@code extent} long (not cached).
     */
    public io.apiserver4j.cel.CelCostEstimate estimatedCost(Set<String> bounded, long extent) {
      CostRange r = CostEstimator.estimate(ast, types, bounded, extent);
      return new io.apiserver4j.cel.CelCostEstimate(r.min(), r.max());
    }

    /** The static cost range (computed once, on first use). */
    public io.apiserver4j.cel.CelCostEstimate estimatedCost() {
      io.apiserver4j.cel.CelCostEstimate e = estimate;
      if (e == null) {
        CostRange r = CostEstimator.estimate(ast, types);
        e = new io.apiserver4j.cel.CelCostEstimate(r.min(), r.max());
        estimate = e;
      }
      return e;
    }

    /** Evaluates counting the runtime cost; past {@code limit} it fails as cel-go cancels. */
    public io.apiserver4j.cel.CelResult evaluate(Map<String, Value> bindings,
        Map<String, Optional<Value>> optionals, long limit) {
      Map<String, Object> vars = new HashMap<>();
      bindings.forEach((k, v) -> vars.put(k, toCel(v, types.get(k))));
      optionals.forEach((k, v) -> vars.put(k, v.map(x -> toCel(x, types.get(k)))));
      return runTracked(name -> Optional.ofNullable(vars.get(name)), limit);
    }

    /** Like {@link #evaluate(Prepared)}, counting the runtime cost up to {@code limit}. */
    public io.apiserver4j.cel.CelResult evaluate(Prepared prepared, long limit) {
      if (!types.isEmpty()) {
        Map<String, Object> vars = new HashMap<>();
        prepared.values.forEach((k, v) -> vars.put(k, toCel(v, types.get(k))));
        putLazyAndAuthorizer(vars, prepared.lazyMaps, prepared.authorizer);
        return runTracked(name -> Optional.ofNullable(vars.get(name)), limit);
      }
      return runTracked(prepared.resolver, limit);
    }

    private io.apiserver4j.cel.CelResult runTracked(dev.cel.runtime.CelVariableResolver vars,
        long limit) {
      RuntimeCost rc = runtimeCost;
      if (rc == null) {
        rc = new RuntimeCost(ast);
        runtimeCost = rc;
      }
      RuntimeCost.Tracker tracker = rc.tracker(limit);
      try {
        return new io.apiserver4j.cel.CelResult(fromCel(program.trace(vars, tracker)),
            tracker.cost());
      } catch (CelEvaluationException | RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
          if (t instanceof RuntimeCost.LimitExceeded) {
            throw new CelException(CelException.Kind.COST_LIMIT, t.getMessage(), null,
                tracker.cost());
          }
        }
        CelException failure = lazyFailure(e).orElseGet(() -> new CelException(
            CelException.Kind.EVALUATION, GoMessages.of(e), e));
        throw new CelException(failure.kind(), failure.getMessage(), failure.getCause(),
            tracker.failed());
      }
    }

    /** Whether the checked result type is {@code bool}, {@code string}, ... or dynamic. */
    public boolean mayEvaluateTo(String typeName) {
      return resultType.equals(SimpleType.DYN) || resultType.equals(SimpleType.ANY)
          || resultType.name().equals(typeName);
    }

    public String resultTypeName() {
      return resultType.name();
    }

    public Set<String> identifiers() {
      return identifiers;
    }

    public Value evaluate(Map<String, Value> bindings, Map<String, Optional<Value>> optionals) {
      return evaluate(bindings, optionals, Map.of(), null);
    }

    /** {@code authorizer} may be null when the expression declares none. */
    public Value evaluate(Map<String, Value> bindings, Map<String, Optional<Value>> optionals,
        Map<String, io.apiserver4j.cel.CelLazyMap> lazyMaps,
        io.apiserver4j.cel.CelAuthorizer.ForRequest authorizer) {
      Map<String, Object> vars = new HashMap<>();
      bindings.forEach((k, v) -> vars.put(k, toCel(v, types.get(k))));
      optionals.forEach((k, v) -> vars.put(k, v.map(x -> toCel(x, types.get(k)))));
      putLazyAndAuthorizer(vars, lazyMaps, authorizer);
      return run(name -> Optional.ofNullable(vars.get(name)));
    }

    /** Evaluates with bindings prepared once for several programs. */
    public Value evaluate(Prepared prepared) {
      if (!types.isEmpty()) {
        // typed variables convert formatted strings per program
        return evaluate(prepared.values, Map.of(), prepared.lazyMaps, prepared.authorizer);
      }
      return run(prepared.resolver);
    }

    private Value run(dev.cel.runtime.CelVariableResolver vars) {
      if (fast != null) {
        try {
          return fromCel(fast.evaluate(vars));
        } catch (RuntimeException e) {
          // A bail, or a failure of a lazy variable or value conversion: cel-java evaluates
          // again (without side effects) and reports what it reports.
        }
      }
      return interpret(vars);
    }

    /** For tests: whether the expression is in the fast path's subset. */
    boolean hasFastPath() {
      return fast != null;
    }

    /** For tests: the fast path alone; empty when it leaves the evaluation to cel-java. */
    Optional<Value> evaluateFast(Map<String, Value> bindings) {
      if (fast == null) {
        return Optional.empty();
      }
      Map<String, Object> vars = new HashMap<>();
      bindings.forEach((k, v) -> vars.put(k, toCel(v, types.get(k))));
      try {
        return Optional.of(fromCel(fast.evaluate(name -> Optional.ofNullable(vars.get(name)))));
      } catch (FastPath.Bail e) {
        return Optional.empty();
      }
    }

    /** For tests: cel-java alone. */
    Value interpret(Map<String, Value> bindings) {
      Map<String, Object> vars = new HashMap<>();
      bindings.forEach((k, v) -> vars.put(k, toCel(v, types.get(k))));
      return interpret(name -> Optional.ofNullable(vars.get(name)));
    }

    private Value interpret(dev.cel.runtime.CelVariableResolver vars) {
      try {
        return fromCel(program.eval(vars));
      } catch (CelEvaluationException e) {
        throw lazyFailure(e).orElseGet(
            () -> new CelException(CelException.Kind.EVALUATION, GoMessages.of(e),
                e));
      } catch (RuntimeException e) {
        throw lazyFailure(e).orElseGet(() -> new CelException(CelException.Kind.EVALUATION,
            GoMessages.of(e), e));
      }
    }

    /** A lazy map's failure keeps its own message, however the runtime wrapped it. */
    private static Optional<CelException> lazyFailure(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof CelException ce) {
          return Optional.of(ce);
        }
      }
      return Optional.empty();
    }
  }

  /** Variable values converted once, for several evaluations. */
  public static final class Prepared {
    final Map<String, Value> values;
    final Map<String, io.apiserver4j.cel.CelLazyMap> lazyMaps;
    final io.apiserver4j.cel.CelAuthorizer.ForRequest authorizer;
    final dev.cel.runtime.CelVariableResolver resolver;

    Prepared(Map<String, Value> values, Map<String, io.apiserver4j.cel.CelLazyMap> lazyMaps,
        io.apiserver4j.cel.CelAuthorizer.ForRequest authorizer) {
      this.values = values;
      this.lazyMaps = lazyMaps;
      this.authorizer = authorizer;
      Map<String, Object> vars = new HashMap<>();
      values.forEach((k, v) -> vars.put(k, toCel(v, null)));
      putLazyAndAuthorizer(vars, lazyMaps, authorizer);
      this.resolver = name -> Optional.ofNullable(vars.get(name));
    }
  }

  public static Prepared prepare(Map<String, Value> values,
      Map<String, io.apiserver4j.cel.CelLazyMap> lazyMaps,
      io.apiserver4j.cel.CelAuthorizer.ForRequest authorizer) {
    return new Prepared(values, lazyMaps, authorizer);
  }

  private static void putLazyAndAuthorizer(Map<String, Object> vars,
      Map<String, io.apiserver4j.cel.CelLazyMap> lazyMaps,
      io.apiserver4j.cel.CelAuthorizer.ForRequest authorizer) {
    lazyMaps.forEach((k, v) -> vars.put(k, new LazyMap(v)));
    if (authorizer != null) {
      AuthzLibrary.AuthorizerValue authz =
          new AuthzLibrary.AuthorizerValue(authorizer.authorizer(), "");
      vars.put("authorizer", authz);
      vars.put(AuthzLibrary.REQUEST_RESOURCE, new AuthzLibrary.ResourceCheckValue(authz,
          authorizer.group(), authorizer.resource(), authorizer.subresource(),
          authorizer.namespace(), authorizer.name()));
    }
  }

  /** Compiles; variables named in {@code optionals} are declared {@code optional_type(dyn)}. */
  public static Compiled compile(String expression, List<String> variables,
      List<String> optionals) {
    return compile(expression, variables, optionals, Map.of());
  }

  /** Compiles, checking field selections on the variables in {@code types}. */
  public static Compiled compile(String expression, List<String> variables,
      List<String> optionals, Map<String, io.apiserver4j.cel.CelObjectType> types) {
    return compile(expression, variables, optionals, types, false);
  }

  /**
   * Compiles; with {@code objectsAsMaps}, MutatingAdmissionPolicy object constructions
   * ({@code Object{..}}, {@code JSONPatch{..}}) build maps.
   */
  public static Compiled compile(String expression, List<String> variables,
      List<String> optionals, Map<String, io.apiserver4j.cel.CelObjectType> types,
      boolean objectsAsMaps) {
    List<String> key = new ArrayList<>(variables);
    optionals.forEach(o -> key.add("?" + o));
    Cel cel = ENVIRONMENTS.computeIfAbsent(List.copyOf(key), KubeEnvironment::build);
    CelAbstractSyntaxTree ast;
    try {
      CelAbstractSyntaxTree parsed;
      try {
        parsed = cel.parse(expression).getAst();
      } catch (CelValidationException e) {
        // cel-go words parser errors as syntax errors
        throw new CelException(CelException.Kind.COMPILE, SYNTAX_ERROR.matcher(e.getMessage())
            .replaceAll("$1Syntax error: "), e);
      }
      if (objectsAsMaps) {
        ast = cel.check(StructsAsMaps.rewrite(parsed)).getAst();
      } else {
        ast = cel.check(parsed).getAst();
      }
    } catch (CelValidationException e) {
      throw new CelException(CelException.Kind.COMPILE, e.getMessage(), e);
    }
    if (!types.isEmpty()) {
      FieldCheck.check(ast, expression, types);
    }
    // MutatingAdmissionPolicy object constructions, rewritten to maps, are typed structs in
    // cel-go: their fields need not share a type
    LiteralChecks.check(ast, expression, objectsAsMaps ? LiteralChecks.Aggregates.UNCHECKED
        : LiteralChecks.Aggregates.HOMOGENEOUS);
    ListOverloadCheck.check(ast, expression);
    Set<String> identifiers = CelNavigableAst.fromAst(ast).getRoot().allNodes()
        .filter(n -> n.getKind() == CelExpr.ExprKind.Kind.IDENT)
        .map(n -> n.expr().ident().name())
        // a hash set: asked on every evaluation (transition rules), Set.of probes slower
        .collect(Collectors.collectingAndThen(Collectors.toCollection(java.util.HashSet::new),
            java.util.Collections::unmodifiableSet));
    Set<String> declared = new java.util.HashSet<>(variables);
    declared.addAll(optionals);
    FastPath fast = FastPath.plan(ast, declared,
        OPTIONS.evaluateCanonicalTypesToNativeValues()
            ? dev.cel.common.values.NullValue.NULL_VALUE
            : com.google.protobuf.NullValue.NULL_VALUE,
        MAX_ITERATIONS).orElse(null);
    try {
      return new Compiled(cel.createProgram(ast), fast, identifiers, types,
          ast.getResultType(), ast);
    } catch (CelEvaluationException e) {
      throw new CelException(CelException.Kind.COMPILE, e.getMessage(), e);
    }
  }

  private static final java.util.regex.Pattern SYNTAX_ERROR = java.util.regex.Pattern.compile(
      "(?m)^(ERROR: <input>:\\d+:\\d+: )");

  private static final CelOptions OPTIONS = CelOptions.current()
      .enableOptionalSyntax(true)
      .enableHeterogeneousNumericComparisons(true)
      // A bound on hostile rules until runtime costs are tracked as kube does (its per-call
      // limit is 1,000,000 cost units; a comprehension step costs at least one).
      .comprehensionMaxIterations(MAX_ITERATIONS)
      .build();

  /**
   * cel-go's lists extension as kube 1.36 enables it (version 3), but for {@code slice} and
   * {@code flatten}, which are declared with cel-go's error texts in {@link #addListsLibrary},
   * and {@code sortBy}, declared as cel-go types it in {@link SortBy}.
   */
  private static final dev.cel.extensions.CelListsExtensions EXT_LISTS = CelExtensions.lists(
      dev.cel.extensions.CelListsExtensions.Function.RANGE,
      dev.cel.extensions.CelListsExtensions.Function.DISTINCT,
      dev.cel.extensions.CelListsExtensions.Function.REVERSE,
      dev.cel.extensions.CelListsExtensions.Function.SORT);

  /** The standard overloads replaced by {@link KubeLists}' answers. */
  private static final Set<Object> KUBE_LIST_OVERLOADS = Set.of(
      dev.cel.runtime.standard.EqualsOperator.EqualsOverload.EQUALS,
      dev.cel.runtime.standard.NotEqualsOperator.NotEqualsOverload.NOT_EQUALS,
      dev.cel.runtime.standard.InOperator.InOverload.IN_LIST,
      dev.cel.runtime.standard.AddOperator.AddOverload.ADD_LIST);

  /** cel-java's equality, which {@link KubeLists} applies below lists and maps. */
  private static final dev.cel.runtime.RuntimeEquality EQUALITY =
      dev.cel.runtime.RuntimeEquality.create(dev.cel.runtime.RuntimeHelpers.create(), OPTIONS);

  /** cel-java's own list concatenation, for lists that are not kube's set or map lists. */
  private static final dev.cel.runtime.CelFunctionOverload ADD_LIST =
      dev.cel.runtime.standard.AddOperator.AddOverload.ADD_LIST
          .newFunctionBinding(OPTIONS, EQUALITY).getDefinition();

  private static Object addLists(List<?> a, List<?> b) throws CelEvaluationException {
    if (a instanceof KubeLists.SetList || a instanceof KubeLists.MapList) {
      return KubeLists.add(a, b);
    }
    return ADD_LIST.apply(new Object[] {a, b});
  }

  private static Cel build(List<String> variables) {
    CelOptions options = OPTIONS;
    var b = CelFactory.standardCelBuilder()
        .setOptions(options)

        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        // two standard bindings are replaced below by cel-go's answers, which cel-java allows
        // only with the standard environment given explicitly
        .setStandardEnvironmentEnabled(false)
        .setStandardDeclarations(dev.cel.checker.CelStandardDeclarations.newBuilder().build())
        .setStandardFunctions(dev.cel.runtime.CelStandardFunctions.newBuilder()
            .filterFunctions((function, overload) ->
                overload != dev.cel.runtime.standard.StringFunction.StringOverload.DOUBLE_TO_STRING
                && overload != dev.cel.runtime.standard.GetMillisecondsFunction
                    .GetMillisecondsOverload.DURATION_TO_MILLISECONDS
                && !KUBE_LIST_OVERLOADS.contains(overload))
            .build())
        .addCompilerLibraries(CelExtensions.strings(), CelExtensions.sets(options),
            CelExtensions.optional(), CelExtensions.comprehensions(), CelExtensions.encoders(options),
            EXT_LISTS)
        .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.sets(options),
            CelExtensions.optional(), CelExtensions.comprehensions(), CelExtensions.encoders(options),
            EXT_LISTS);
    for (String v : variables) {
      if (v.equals("authorizer")) {
        continue; // typed by the authorizer library
      }
      if (v.startsWith("?")) {
        b.addVar(v.substring(1), dev.cel.common.types.OptionalType.create(SimpleType.DYN));
      } else {
        b.addVar(v, SimpleType.DYN);
      }
    }
    addRegexLibrary(b);
    addListsLibrary(b);
    SortBy.add(b);
    StringFormat.add(b);
    // cel-go's answers where cel-java's differ: string(double) as Go's %g, and a duration's
    // getMilliseconds() as the whole duration in milliseconds
    b.addFunctionBindings(
        CelFunctionBinding.from("double_to_string", Double.class, GoFloats::g),
        CelFunctionBinding.from("duration_to_milliseconds", java.time.Duration.class,
            java.time.Duration::toMillis));
    // cel-go's zero values: a timestamp's is Go's zero time (year 1), not the Unix epoch
    b.addFunctionBindings(CelFunctionBinding.from("optional_ofNonZeroValue", Object.class,
        v -> ZeroValues.isZero(v) ? Optional.empty() : Optional.of(v)));
    // equality, concatenation and membership as cel-go evaluates them on kube's set and map
    // lists (KubeLists)
    b.addFunctionBindings(
        CelFunctionBinding.from("equals", Object.class, Object.class,
            (x, y) -> KubeLists.equal(EQUALITY, x, y)),
        CelFunctionBinding.from("not_equals", Object.class, Object.class,
            (x, y) -> !KubeLists.equal(EQUALITY, x, y)),
        CelFunctionBinding.from("in_list", Object.class, List.class,
            (x, l) -> KubeLists.in(EQUALITY, x, l)),
        CelFunctionBinding.from("add_list", List.class, List.class, KubeEnvironment::addLists));
    // the well-known type names cel-go declares (type(d) == google.protobuf.Duration)
    b.addMessageTypes(com.google.protobuf.Duration.getDescriptor(),
        com.google.protobuf.Timestamp.getDescriptor());
    // and the names of kube's library types (type(ip('::1')) == net.IP)
    b.setTypeProvider(KubeLibraries.TYPE_PROVIDER);
    AuthzLibrary.add(b, variables);
    JsonPatchLibrary.add(b);
    KubeLibraries.addAll(b);
    return b.build();
  }

  // --- kube's regex library: find, findAll ------------------------------------------------------

  private static void addRegexLibrary(dev.cel.bundle.CelBuilder b) {
    b.addFunctionDeclarations(
        CelFunctionDecl.newFunctionDeclaration("find",
            CelOverloadDecl.newMemberOverload("string_find_string", SimpleType.STRING,
                SimpleType.STRING, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("findAll",
            CelOverloadDecl.newMemberOverload("string_find_all_string",
                ListType.create(SimpleType.STRING), SimpleType.STRING, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("string_find_all_string_int",
                ListType.create(SimpleType.STRING), SimpleType.STRING, SimpleType.STRING,
                SimpleType.INT)));
    b.addFunctionBindings(
        CelFunctionBinding.from("string_find_string", String.class, String.class,
            (s, re) -> {
              Matcher m = regex(re).matcher(s);
              return m.find() ? m.group() : "";
            }),
        CelFunctionBinding.from("string_find_all_string", String.class, String.class,
            (s, re) -> findAll(s, re, -1)),
        CelFunctionBinding.from("string_find_all_string_int",
            List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  private static Pattern regex(String re) throws CelEvaluationException {
    Object p = REGEXES.get(re);
    if (p == null) {
      try {
        p = Pattern.compile(re);
      } catch (PatternSyntaxException e) {
        p = e.getMessage();
      }
      // Patterns can come from the data: the cache is bounded.
      if (REGEXES.size() < MAX_CACHED_REGEXES) {
        REGEXES.put(re, p);
      }
    }
    if (p instanceof String msg) {
      throw new CelEvaluationException(msg);
    }
    return (Pattern) p;
  }

  private static List<String> findAll(String s, String re, long limit)
      throws CelEvaluationException {
    Matcher m = regex(re).matcher(s);
    List<String> out = new ArrayList<>();
    while ((limit < 0 || out.size() < limit) && m.find()) {
      out.add(m.group());
    }
    return ImmutableList.copyOf(out);
  }

  // --- kube's lists library: isSorted, sum, min, max, indexOf, lastIndexOf ----------------------

  private static void addListsLibrary(dev.cel.bundle.CelBuilder b) {
    TypeParamType t = TypeParamType.create("T");
    ListType listT = ListType.create(t);
    b.addFunctionDeclarations(
        CelFunctionDecl.newFunctionDeclaration("isSorted",
            CelOverloadDecl.newMemberOverload("list_is_sorted", SimpleType.BOOL, listT)),
        CelFunctionDecl.newFunctionDeclaration("sum",
            CelOverloadDecl.newMemberOverload("list_sum", t, listT)),
        CelFunctionDecl.newFunctionDeclaration("min",
            CelOverloadDecl.newMemberOverload("list_min", t, listT)),
        CelFunctionDecl.newFunctionDeclaration("max",
            CelOverloadDecl.newMemberOverload("list_max", t, listT)),
        CelFunctionDecl.newFunctionDeclaration("indexOf",
            CelOverloadDecl.newMemberOverload("list_index_of", SimpleType.INT, listT, t)),
        CelFunctionDecl.newFunctionDeclaration("lastIndexOf",
            CelOverloadDecl.newMemberOverload("list_last_index_of", SimpleType.INT, listT, t)),
        CelFunctionDecl.newFunctionDeclaration("slice",
            CelOverloadDecl.newMemberOverload("list_slice", listT, listT, SimpleType.INT,
                SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration("flatten",
            CelOverloadDecl.newMemberOverload("list_flatten", ListType.create(SimpleType.DYN),
                ListType.create(SimpleType.DYN)),
            CelOverloadDecl.newMemberOverload("list_flatten_int", ListType.create(SimpleType.DYN),
                ListType.create(SimpleType.DYN), SimpleType.INT)));
    b.addFunctionBindings(
        CelFunctionBinding.from("list_is_sorted", List.class, l -> {
          for (int i = 1; i < l.size(); i++) {
            if (compare(l.get(i - 1), l.get(i)) > 0) {
              return false;
            }
          }
          return true;
        }),
        CelFunctionBinding.from("list_sum", List.class, l -> {
          if (l.isEmpty()) {
            return zeroSum(l);
          }
          Object acc = l.get(0);
          for (int i = 1; i < l.size(); i++) {
            acc = add(acc, l.get(i));
          }
          return acc;
        }),
        CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1)),
        CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1)),
        CelFunctionBinding.from("list_index_of", List.class, Object.class,
            (l, x) -> (long) indexOf(l, x)),
        CelFunctionBinding.from("list_last_index_of", List.class, Object.class,
            (l, x) -> (long) lastIndexOf(l, x)),
        CelFunctionBinding.from("list_slice", List.of(List.class, Long.class, Long.class),
            args -> slice((List<?>) args[0], (Long) args[1], (Long) args[2])),
        CelFunctionBinding.from("list_flatten", List.class, l -> flatten(l, 1)),
        CelFunctionBinding.from("list_flatten_int", List.class, Long.class,
            (l, depth) -> {
              if (depth < 0) {
                throw new CelEvaluationException("level must be non-negative");
              }
              return flatten(l, depth);
            }));
  }

  /**
   * The sum of an empty list: kube's overload for the list's element type returns that type's
   * zero; the element type is known from the schema for data, else it is an int.
   */
  private static Object zeroSum(List<?> l) {
    io.apiserver4j.cel.CelObjectType items = l instanceof ValueList v ? v.items : null;
    if (items != null && items.scalar() == io.apiserver4j.cel.CelObjectType.Scalar.DURATION) {
      return java.time.Duration.ZERO;
    }
    if (items != null && items.scalar() == io.apiserver4j.cel.CelObjectType.Scalar.DOUBLE) {
      return 0.0;
    }
    return 0L;
  }

  /** cel-go's {@code slice}, with its texts. */
  private static List<?> slice(List<?> l, long start, long end) throws CelEvaluationException {
    String call = "cannot slice(" + start + ", " + end + "), ";
    if (start < 0 || end < 0) {
      throw new CelEvaluationException(call + "negative indexes not supported");
    }
    if (start > end) {
      throw new CelEvaluationException(call
          + "start index must be less than or equal to end index");
    }
    if (end > l.size()) {
      throw new CelEvaluationException(call + "list is length " + l.size());
    }
    return ImmutableList.copyOf(l.subList((int) start, (int) end));
  }

  private static List<?> flatten(List<?> l, long depth) {
    ImmutableList.Builder<Object> out = ImmutableList.builder();
    for (Object o : l) {
      if (o instanceof List<?> inner && depth > 0) {
        out.addAll(flatten(inner, depth - 1));
      } else {
        out.add(o);
      }
    }
    return out.build();
  }

  private static int indexOf(List<?> l, Object x) {
    for (int i = 0; i < l.size(); i++) {
      if (celEquals(l.get(i), x)) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(List<?> l, Object x) {
    for (int i = l.size() - 1; i >= 0; i--) {
      if (celEquals(l.get(i), x)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean celEquals(Object a, Object b) {
    if (a instanceof Number && b instanceof Number) {
      return compare(a, b) == 0;
    }
    return a.equals(b);
  }

  private static Object extreme(List<?> l, int sign) throws CelEvaluationException {
    if (l.isEmpty()) {
      throw new CelEvaluationException((sign < 0 ? "min" : "max")
          + " called on empty list");
    }
    Object best = l.get(0);
    for (Object o : l) {
      if (Integer.signum(compare(o, best)) == sign) {
        best = o;
      }
    }
    return best;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a instanceof Comparable c) {
      return c.compareTo(b);
    }
    throw new IllegalArgumentException("no such overload");
  }

  private static Object add(Object a, Object b) throws CelEvaluationException {
    if (a instanceof Long x && b instanceof Long y) {
      try {
        return Math.addExact(x, y);
      } catch (ArithmeticException e) {
        throw new CelEvaluationException("integer overflow");
      }
    }
    if (a instanceof Double x && b instanceof Double y) {
      return x + y;
    }
    if (a instanceof UnsignedLong x && b instanceof UnsignedLong y) {
      return x.plus(y);
    }
    if (a instanceof String x && b instanceof String y) {
      return x + y;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      return ImmutableList.builder().addAll(x).addAll(y).build();
    }
    if (a instanceof java.time.Duration x && b instanceof java.time.Duration y) {
      return x.plus(y);
    }
    if (a instanceof com.google.protobuf.Duration x && b instanceof com.google.protobuf.Duration y) {
      java.time.Duration sum = java.time.Duration.ofSeconds(x.getSeconds(), x.getNanos())
          .plus(java.time.Duration.ofSeconds(y.getSeconds(), y.getNanos()));
      return com.google.protobuf.Duration.newBuilder().setSeconds(sum.getSeconds())
          .setNanos(sum.getNano()).build();
    }
    throw new CelEvaluationException("no such overload: sum");
  }

  // --- value conversion -------------------------------------------------------------------------

  static Object toCel(Value v) {
    return toCel(v, null);
  }

  /** {@code v} as CEL sees it; {@code type} (nullable) converts formatted strings as kube does. */
  static Object toCel(Value v, io.apiserver4j.cel.CelObjectType type) {
    if (v instanceof StringValue s) {
      return type == null ? s.value() : KubeScalars.convert(s.value(), type.scalar());
    }
    if (v instanceof IntegerValue i) {
      return type != null && type.scalar() == io.apiserver4j.cel.CelObjectType.Scalar.DOUBLE
          ? (Object) (double) i.value() : (Object) i.value();
    }
    if (v instanceof FloatValue f) {
      return f.value();
    }
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    if (v instanceof ListValue l) {
      List<Object> list = new ValueList(l, type == null ? null : type.element().orElse(null));
      if (type == null) {
        return list;
      }
      switch (type.listType()) {
        case SET:
          return new KubeLists.SetList(list);
        case MAP:
          return new KubeLists.MapList(list, type.listMapKeys());
        default:
          return list;
      }
    }
    if (v instanceof MapValue m) {
      return new DataMap(m, type);
    }
    return com.google.protobuf.NullValue.NULL_VALUE;
  }

  /**
   * A value inside a variable as CEL sees it, checked first against its schema as kube's
   * {@code UnstructuredToVal} checks it: a mismatch is an evaluation error with kube's text,
   * raised when the rule reaches the value.
   */
  static Object toCelChecked(Value v, io.apiserver4j.cel.CelObjectType type) {
    if (type != null) {
      invalidData(v, type).ifPresent(message -> {
        throw new CelException(CelException.Kind.EVALUATION, message, null);
      });
    }
    return toCel(v, type);
  }

  private static Optional<String> invalidData(Value v, io.apiserver4j.cel.CelObjectType type) {
    if (v.isNull()) {
      return type.nullable() ? Optional.empty()
          : Optional.of("invalid data, got null for schema with nullable=false");
    }
    if (type.intOrString()) {
      return v instanceof StringValue || v instanceof IntegerValue ? Optional.empty()
          : Optional.of("invalid data, expected XIntOrString value to be either a string or"
              + " integer");
    }
    if (type.schemaType().equals("object") && !(v instanceof MapValue)) {
      return Optional.of("invalid data, expected a map for the provided schema with type=object");
    }
    if (type.schemaType().equals("array") && !(v instanceof ListValue)) {
      return Optional.of(
          "invalid data, expected an array for the provided schema with type=array");
    }
    return Optional.empty();
  }

  /** A read-only list view converting items on access: rules touch few of an object's fields. */
  private static final class ValueList extends java.util.AbstractList<Object>
      implements java.util.RandomAccess {
    private final ListValue list;
    private final io.apiserver4j.cel.CelObjectType items;

    ValueList(ListValue list, io.apiserver4j.cel.CelObjectType items) {
      this.list = list;
      this.items = items;
    }

    @Override
    public Object get(int index) {
      return toCelChecked(list.get(index), items);
    }

    @Override
    public int size() {
      return list.size();
    }
  }

  /** A read-only map view of the data converting values on access. */
  static final class DataMap extends java.util.AbstractMap<Object, Object> {
    private final MapValue map;
    private final io.apiserver4j.cel.CelObjectType type;

    DataMap(MapValue map, io.apiserver4j.cel.CelObjectType type) {
      this.map = map;
      this.type = type;
    }

    private io.apiserver4j.cel.CelObjectType fieldType(String key) {
      if (type == null) {
        return null;
      }
      Optional<io.apiserver4j.cel.CelObjectType> t = type.element();
      return t.isPresent() ? t.get() : type.field(key).orElse(null);
    }

    @Override
    public Object get(Object key) {
      Value v = key instanceof String k ? map.getOrNull(k) : null;
      return v == null ? null : toCelChecked(v, fieldType((String) key));
    }

    @Override
    public boolean containsKey(Object key) {
      Value v = key instanceof String k ? map.getOrNull(k) : null;
      if (v != null) {
        // kube's has() converts the field's value, failing on data its schema does not allow
        io.apiserver4j.cel.CelObjectType t = fieldType((String) key);
        if (t != null) {
          invalidData(v, t).ifPresent(message -> {
            throw new CelException(CelException.Kind.EVALUATION, message, null);
          });
        }
      }
      return v != null;
    }

    @Override
    public int size() {
      return map.size();
    }

    @Override
    public java.util.Set<Map.Entry<Object, Object>> entrySet() {
      return new java.util.AbstractSet<>() {
        @Override
        public java.util.Iterator<Map.Entry<Object, Object>> iterator() {
          return new java.util.Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
              return i < map.size();
            }

            @Override
            public Map.Entry<Object, Object> next() {
              if (i >= map.size()) {
                throw new java.util.NoSuchElementException();
              }
              int at = i++;
              return new java.util.AbstractMap.SimpleImmutableEntry<>(map.keyAt(at),
                  toCelChecked(map.valueAt(at), fieldType(map.keyAt(at))));
            }
          };
        }

        @Override
        public int size() {
          return map.size();
        }
      };
    }
  }

  /** A map view computing its values when read (see {@link io.apiserver4j.cel.CelLazyMap}). */
  private static final class LazyMap extends java.util.AbstractMap<Object, Object> {
    private final io.apiserver4j.cel.CelLazyMap lazy;

    LazyMap(io.apiserver4j.cel.CelLazyMap lazy) {
      this.lazy = lazy;
    }

    @Override
    public Object get(Object key) {
      return key instanceof String k && lazy.keys().contains(k) ? toCel(lazy.get(k)) : null;
    }

    @Override
    public boolean containsKey(Object key) {
      return key instanceof String k && lazy.keys().contains(k);
    }

    @Override
    public int size() {
      return lazy.keys().size();
    }

    @Override
    public java.util.Set<Map.Entry<Object, Object>> entrySet() {
      java.util.Set<Map.Entry<Object, Object>> out = new java.util.LinkedHashSet<>();
      for (String k : lazy.keys()) {
        out.add(new java.util.AbstractMap.SimpleImmutableEntry<>(k, toCel(lazy.get(k))));
      }
      return out;
    }
  }

  static Value fromCel(Object o) {
    if (o instanceof Boolean b) {
      return Value.of(b);
    }
    if (o instanceof Long l) {
      return Value.of(l);
    }
    if (o instanceof UnsignedLong u) {
      return Value.of(u.longValue());
    }
    if (o instanceof Double d) {
      return Value.of(d);
    }
    if (o instanceof String s) {
      return Value.of(s);
    }
    if (o instanceof List<?> l) {
      ListValue.Builder b = ListValue.builder(l.size());
      for (Object item : l) {
        b.add(fromCel(item));
      }
      return b.build();
    }
    if (o instanceof Map<?, ?> m) {
      MapValue.Builder b = MapValue.builder();
      m.forEach((k, v) -> b.put(String.valueOf(k), fromCel(v)));
      return b.build();
    }
    if (o instanceof Optional<?> opt) {
      return opt.map(KubeEnvironment::fromCel).orElse(Value.nullValue());
    }
    if (o == null || o instanceof com.google.protobuf.NullValue
        || o instanceof dev.cel.common.values.NullValue) {
      return Value.nullValue();
    }
    return Value.of(o.toString());
  }
}
