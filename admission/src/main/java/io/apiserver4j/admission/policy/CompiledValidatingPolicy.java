/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static io.apiserver4j.core.Meta.string;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.matching.MatchCriteria;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A ValidatingAdmissionPolicy compiled once per spec: its expressions, and the evaluation of
 * one request against it with one parameter object, as kube's {@code validator.Validate}.
 * Immutable and thread-safe.
 */
final class CompiledValidatingPolicy {
  /** kube's {@code MaxEvaluatedMessageExpressionSizeBytes}. */
  private static final int MAX_MESSAGE_BYTES = 5 * 1024;

  private final String name;
  private final MapValue spec;
  private final boolean failClosed;
  private final Optional<ParamKind> paramKind;
  private final MatchCriteria matchConstraints;
  private final List<PolicyExpression> matchConditions;
  private final List<String> variableNames;
  private final List<PolicyExpression> variables;
  private final List<Validation> validations;
  private final List<AuditAnnotation> auditAnnotations;
  private final boolean readsRequest;
  private final boolean readsNamespace;
  /**
   * Up to which extent of the request's values evaluations need not count costs (their
   * estimates cannot reach kube's limits); -1: always counted.
   */
  private final long untrackedUpTo;

  record ParamKind(String apiVersion, String kind) {
    /** As Go prints the generated type ({@code &ParamKind{APIVersion:v1,Kind:ConfigMap,}}). */
    @Override
    public String toString() {
      return "&ParamKind{APIVersion:" + apiVersion + ",Kind:" + kind + ",}";
    }
  }

  record Validation(PolicyExpression expression, String message,
      PolicyExpression messageExpression, StatusReason reason) {}

  record AuditAnnotation(String key, PolicyExpression valueExpression) {}

  /** One validation's outcome: kube's {@code PolicyDecision}. */
  record Decision(boolean deny, boolean evaluationError, String message, StatusReason reason) {}

  /** One audit annotation's outcome; {@code error} set when it must deny. */
  record AnnotationResult(String key, String value, String error) {}

  record Result(List<Decision> decisions, List<AnnotationResult> annotations) {
    static final Result NOT_MATCHED = new Result(List.of(), List.of());
  }

  CompiledValidatingPolicy(MapValue policy) {
    this.name = Meta.metaString(policy, "name");
    this.spec = map(policy.getOrNull("spec"));
    this.failClosed = !"Ignore".equals(string(spec, "failurePolicy"));
    MapValue pk = map(spec.getOrNull("paramKind"));
    this.paramKind = spec.containsKey("paramKind") && !(spec.getOrNull("paramKind")
        instanceof NullValue)
        ? Optional.of(new ParamKind(string(pk, "apiVersion"), string(pk, "kind")))
        : Optional.empty();
    this.matchConstraints = MatchCriteria.forPolicy(map(spec.getOrNull("matchConstraints")));
    List<String> declared = PolicyActivation.declared(paramKind.isPresent(), true);
    List<String> declaredNoAuthz = PolicyActivation.declared(paramKind.isPresent(), false);

    List<String> varNames = new ArrayList<>();
    List<PolicyExpression> vars = new ArrayList<>();
    for (MapValue v : maps(spec.getOrNull("variables"))) {
      varNames.add(string(v, "name"));
      vars.add(PolicyExpression.compile(string(v, "expression"), declared));
    }
    this.variableNames = List.copyOf(varNames);
    this.variables = List.copyOf(vars);

    List<PolicyExpression> conditions = new ArrayList<>();
    for (MapValue c : maps(spec.getOrNull("matchConditions"))) {
      conditions.add(PolicyExpression.compile(string(c, "expression"), declared, "bool"));
    }
    this.matchConditions = List.copyOf(conditions);

    List<Validation> vs = new ArrayList<>();
    for (MapValue v : maps(spec.getOrNull("validations"))) {
      String messageExpression = string(v, "messageExpression");
      String reason = string(v, "reason");
      vs.add(new Validation(
          PolicyExpression.compile(string(v, "expression"), declared, "bool"),
          string(v, "message"),
          messageExpression.isEmpty() ? null
              : PolicyExpression.compile(messageExpression, declaredNoAuthz, "string"),
          reason.isEmpty() ? StatusReason.INVALID : StatusReason.fromWireName(reason)));
    }
    this.validations = List.copyOf(vs);

    List<AuditAnnotation> as = new ArrayList<>();
    for (MapValue a : maps(spec.getOrNull("auditAnnotations"))) {
      as.add(new AuditAnnotation(string(a, "key"), PolicyExpression.compile(
          string(a, "valueExpression"), declaredNoAuthz, "string", "null_type")));
    }
    this.auditAnnotations = List.copyOf(as);
    List<PolicyExpression> all = new ArrayList<>(variables);
    all.addAll(matchConditions);
    validations.forEach(v -> {
      all.add(v.expression());
      if (v.messageExpression() != null) {
        all.add(v.messageExpression());
      }
    });
    auditAnnotations.forEach(a -> all.add(a.valueExpression()));
    this.untrackedUpTo = CostLimits.untrackedUpTo(all);
    this.readsRequest = all.stream().anyMatch(e -> e.references("request"));
    this.readsNamespace = all.stream().anyMatch(e -> e.references("namespaceObject"));
  }

  /** Whether any expression reads {@code request}: it is built only then. */
  boolean readsRequest() {
    return readsRequest;
  }

  /** Whether any expression reads {@code namespaceObject}: the namespace is read only then. */
  boolean readsNamespace() {
    return readsNamespace;
  }

  String name() {
    return name;
  }

  /** The spec compiled; a policy whose spec is unchanged is not compiled again. */
  MapValue spec() {
    return spec;
  }

  boolean failClosed() {
    return failClosed;
  }

  Optional<ParamKind> paramKind() {
    return paramKind;
  }

  MatchCriteria matchConstraints() {
    return matchConstraints;
  }

  /** Every expression, with its field path, for type checking and status. */
  List<PolicyExpression> validationExpressions() {
    return validations.stream().map(Validation::expression).toList();
  }

  /**
   * Evaluates the match conditions, validations and audit annotations for one parameter object
   * ({@code params}: null when the binding has none); {@code objectsExtent}: the
   * {@link CostLimits#extent} of the object and old object, computed once per request.
   */
  Result validate(AdmissionAttributes a, Value request, Value params, Value namespaceObject,
      CelAuthorizer.ForRequest authorizer, java.util.function.LongSupplier objectsExtent) {
    PolicyActivation activation = PolicyActivation.of(a, request, params, namespaceObject,
        variableNames, variables, authorizer);
    boolean costTracked = CostLimits.counted(untrackedUpTo, () -> Math.max(
        objectsExtent.getAsLong(), CostLimits.extent(request, params, namespaceObject)));
    if (!matchConditions.isEmpty()) {
      if (costTracked) {
        activation.track(CostLimits.MATCH_CONDITIONS_BUDGET);
      }
      List<String> errors = new ArrayList<>();
      for (PolicyExpression c : matchConditions) {
        PolicyExpression.Evaluation e = c.evaluate(activation);
        if (e.outOfBudget()) {
          // kube's matcher: the filter's error decides by the failure policy
          return failClosed ? outOfBudget() : Result.NOT_MATCHED;
        }
        if (e.failed()) {
          errors.add(e.error());
        } else if (e.isFalse()) {
          return Result.NOT_MATCHED;
        }
      }
      if (!errors.isEmpty()) {
        if (!failClosed) {
          return Result.NOT_MATCHED;
        }
        // utilerrors.NewAggregate: one error as itself, several bracketed.
        String message = errors.size() == 1 ? errors.get(0)
            : "[" + String.join(", ", errors) + "]";
        return new Result(List.of(new Decision(true, true, message, null)), List.of());
      }
    }

    if (costTracked) {
      return validateCounted(activation);
    }
    List<Decision> decisions = new ArrayList<>(validations.size());
    for (Validation v : validations) {
      PolicyExpression.Evaluation e = v.expression().evaluate(activation);
      if (e.failed()) {
        decisions.add(new Decision(failClosed, true, e.error(), null));
      } else if (!e.isTrue()) {
        decisions.add(new Decision(true, false, message(v, activation, null), v.reason()));
      } else {
        decisions.add(new Decision(false, false, "", null));
      }
    }
    return new Result(decisions, annotations(activation));
  }

  /** kube's error decision for a spent budget, by the failure policy. */
  private Result outOfBudget() {
    return new Result(List.of(new Decision(failClosed, true, CostLimits.OUT_OF_BUDGET, null)),
        List.of());
  }

  /**
   * The validations as kube counts them: all validation expressions share one budget; all
   * messageExpressions then share what remains (a spent budget turns every decision that is not
   * already an error into one); audit annotations have a budget of their own.
   */
  private Result validateCounted(PolicyActivation activation) {
    activation.track(CostLimits.RUNTIME_BUDGET);
    List<PolicyExpression.Evaluation> results = new ArrayList<>(validations.size());
    for (Validation v : validations) {
      PolicyExpression.Evaluation e = v.expression().evaluate(activation);
      if (e.outOfBudget()) {
        return outOfBudget();
      }
      results.add(e);
    }
    List<PolicyExpression.Evaluation> messages = new ArrayList<>(validations.size());
    boolean messagesOutOfBudget = false;
    for (Validation v : validations) {
      PolicyExpression.Evaluation m = null;
      if (v.messageExpression() != null && !messagesOutOfBudget) {
        m = v.messageExpression().evaluate(activation);
        messagesOutOfBudget = m.outOfBudget();
      }
      messages.add(m);
    }
    List<Decision> decisions = new ArrayList<>(validations.size());
    for (int i = 0; i < validations.size(); i++) {
      Validation v = validations.get(i);
      PolicyExpression.Evaluation e = results.get(i);
      if (e.failed()) {
        decisions.add(new Decision(failClosed, true, e.error(), null));
      } else if (messagesOutOfBudget) {
        decisions.add(new Decision(failClosed, true,
            "failed messageExpression: " + CostLimits.OUT_OF_BUDGET, null));
      } else if (!e.isTrue()) {
        decisions.add(new Decision(true, false, message(v, activation, messages.get(i)),
            v.reason()));
      } else {
        decisions.add(new Decision(false, false, "", null));
      }
    }
    activation.track(CostLimits.RUNTIME_BUDGET);
    List<AnnotationResult> annotations = new ArrayList<>(auditAnnotations.size());
    for (AuditAnnotation an : auditAnnotations) {
      PolicyExpression.Evaluation e = an.valueExpression().evaluate(activation);
      if (e.outOfBudget()) {
        return outOfBudget();
      }
      annotate(an, e, annotations);
    }
    return new Result(decisions, annotations);
  }

  private List<AnnotationResult> annotations(PolicyActivation activation) {
    List<AnnotationResult> annotations = new ArrayList<>(auditAnnotations.size());
    for (AuditAnnotation an : auditAnnotations) {
      annotate(an, an.valueExpression().evaluate(activation), annotations);
    }
    return annotations;
  }

  private void annotate(AuditAnnotation an, PolicyExpression.Evaluation e,
      List<AnnotationResult> annotations) {
    if (e.failed()) {
      if (failClosed) {
        annotations.add(new AnnotationResult(an.key(), null, e.error()));
      }
    } else if (e.value() instanceof StringValue s) {
      String value = s.value().strip();
      if (!value.isEmpty()) {
        annotations.add(new AnnotationResult(an.key(), value, null));
      }
    } else if (!(e.value() instanceof NullValue)) {
      annotations.add(new AnnotationResult(an.key(), null, "valueExpression '"
          + an.valueExpression().expression() + "' resulted in unsupported return type: "
          + celTypeName(e.value()) + ". Return type must be either string or null."));
    }
  }


  /**
   * messageExpression (if it yields a usable one-line text), else message, else the rule;
   * {@code evaluated} is the messageExpression's result when already evaluated.
   */
  private static String message(Validation v, PolicyActivation activation,
      PolicyExpression.Evaluation evaluated) {
    String message = "";
    if (v.messageExpression() != null) {
      PolicyExpression.Evaluation m = evaluated != null ? evaluated
          : v.messageExpression().evaluate(activation);
      if (!m.failed() && m.value() instanceof StringValue s) {
        message = s.value().strip();
        if (message.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES
            || message.contains("\n")) {
          message = "";
        }
      }
    }
    if (message.isEmpty() && !v.message().isEmpty()) {
      message = v.message().strip();
    }
    if (message.isEmpty()) {
      message = "failed expression: " + v.expression().expression().strip();
    }
    return message;
  }

  private static String celTypeName(Value v) {
    return switch (v.kind()) {
      case BOOLEAN -> "bool";
      case INTEGER -> "int";
      case FLOAT -> "double";
      case LIST -> "list";
      case MAP -> "map";
      default -> "string";
    };
  }

  static MapValue map(Value v) {
    return v instanceof MapValue m ? m : MapValue.empty();
  }

  static List<MapValue> maps(Value v) {
    if (!(v instanceof ListValue l)) {
      return List.of();
    }
    List<MapValue> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      out.add(map(l.get(i)));
    }
    return out;
  }
}
