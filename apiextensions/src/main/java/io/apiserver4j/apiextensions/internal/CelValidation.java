/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelResult;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code x-kubernetes-validations} of a custom resource, evaluated as apiextensions-apiserver's
 * CEL validator does: on every level of the schema where the value is present, transition rules
 * only where an old value correlates (unless {@code optionalOldSelf}), rules without
 * {@code oldSelf} ratcheted on unchanged values, kube's messages
 * ({@code failed rule: <rule>}, the message, or the messageExpression's result), reasons and
 * field paths. Programs are compiled once with the schema ({@link SchemaNode}).
 */
public final class CelValidation {
  private CelValidation() {}

  public static void validate(SchemaNode s, Value v, Value old, String path,
      List<FieldError> errs) {
    validate(s, v, old, path, errs, new ArrayList<>());
  }

  /**
   * Validates, reporting errors of rules that ratchet (no oldSelf, value unchanged or inside an
   * unchanged value) as warnings, as kube does.
   */
  public static void validate(SchemaNode s, Value v, Value old, String path,
      List<FieldError> errs, List<FieldError> warnings) {
    validate(s, v, old, path, errs, warnings, CelCostLimits.RUNTIME_CEL_COST_BUDGET);
  }

  /**
   * Validates within a runtime cost budget (kube's RuntimeCELCostBudget per object), returning
   * what remains, negative once the budget ran out or a rule exceeded the per-call limit (then
   * no further rule ran). Costs are only counted when the schema's estimated costs could reach a
   * limit; otherwise the budget is returned untouched.
   */
  static long validate(SchemaNode s, Value v, Value old, String path, List<FieldError> errs,
      List<FieldError> warnings, long budget) {
    return validate(s, v, old, path, errs, warnings, budget, CelCostLimits.PER_CALL_LIMIT,
        CostTracking.WHEN_LIMITS_REACHABLE);
  }

  /** When runtime costs are counted. */
  enum CostTracking {
    /** Only when the schema's estimated costs could reach kube's limits (the server's mode). */
    WHEN_LIMITS_REACHABLE,
    /** Always, as kube does (to check the counted costs and other limits). */
    ALWAYS
  }

  /** Like {@link #validate(SchemaNode, Value, Value, String, List, List, long)}. */
  static long validate(SchemaNode s, Value v, Value old, String path, List<FieldError> errs,
      List<FieldError> warnings, long budget, long perCallLimit, CostTracking tracking) {
    Budget b = new Budget(budget, perCallLimit,
        tracking == CostTracking.ALWAYS || s.costTracked());
    walk(s, v, old, path, errs, warnings, false, b);
    return b.remaining;
  }

  /** The remaining runtime budget of one validation, when costs are tracked. */
  private static final class Budget {
    long remaining;
    final long perCallLimit;
    final boolean tracked;

    Budget(long remaining, long perCallLimit, boolean tracked) {
      this.remaining = remaining;
      this.perCallLimit = perCallLimit;
      this.tracked = tracked;
    }
  }

  private static final String OUT_OF_BUDGET =
      "validation failed due to running out of cost budget, no further validation rules will"
      + " be run";

  private static void walk(SchemaNode s, Value v, Value old, String path, List<FieldError> errs,
      List<FieldError> warnings, boolean unchangedAncestor, Budget budget) {
    if (v == null || v.isNull() || !s.rulesBelow || budget.remaining < 0) {
      return;
    }
    // Only computed where it is used: by rules here, or passed to list items, which have no old
    // value of their own in atomic lists. Properties compare their own correlated old values,
    // which are equal whenever this value is.
    boolean unchanged = unchangedAncestor || (old != null
        && (!s.compiledRules.isEmpty() || s.items != null) && old.equals(v));
    rules(s, v, old, path, errs, warnings, unchanged, budget);
    for (SchemaNode a : s.allOf) {
      if (a.rulesBelow) {
        walk(a, v, old, path, errs, warnings, unchangedAncestor, budget);
      }
    }
    if (v instanceof MapValue m) {
      MapValue om = old instanceof MapValue o ? o : null;
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        Value ov = om == null ? null : om.getOrNull(k);
        SchemaNode p = s.properties.get(k);
        if (p != null) {
          if (p.rulesBelow) {
            walk(p, m.valueAt(i), ov, p.pathUnder(path, k), errs, warnings, unchanged, budget);
          }
        } else if (s.additionalProperties != null && s.additionalProperties.rulesBelow) {
          walk(s.additionalProperties, m.valueAt(i), ov, path + "[" + k + "]", errs, warnings,
              unchanged, budget);
        }
      }
    } else if (v instanceof ListValue l && s.items != null && s.items.rulesBelow) {
      Map<Value, Value> oldItems = new HashMap<>();
      if (old instanceof ListValue ol) {
        for (Value item : ol.items()) {
          Value key = SchemaValidation.correlationKey(s, item);
          if (key != null) {
            oldItems.putIfAbsent(key, item);
          }
        }
      }
      for (int i = 0; i < l.size(); i++) {
        Value item = l.get(i);
        Value key = SchemaValidation.correlationKey(s, item);
        walk(s.items, item, key == null ? null : oldItems.get(key), path + "[" + i + "]", errs,
            warnings, unchanged, budget);
      }
    }
  }

  private static void rules(SchemaNode s, Value v, Value old, String path,
      List<FieldError> errs, List<FieldError> warnings, boolean unchanged, Budget budget) {
    if (s.compiledRules.isEmpty()) {
      return;
    }
    String type = s.type.isEmpty() ? v.kind().schemaType() : s.type;
    if (budget.tracked && budget.remaining <= 0) {
      errs.add(FieldError.invalid(SchemaValidation.field(path), Value.of(type), OUT_OF_BUDGET));
      budget.remaining = -1;
      return;
    }
    Value selfView = null;
    Value oldView = null;
    for (SchemaNode.CompiledRule c : s.compiledRules) {
      SchemaNode.Rule rule = c.rule();
      if (rule.rule().isBlank()) {
        continue;
      }
      String at = SchemaValidation.field(path);
      if (c.program().isEmpty()) {
        errs.add(FieldError.invalid(at, Value.of(type), "rule compile error: "
            + c.compileError()));
        continue;
      }
      boolean usesOldSelf = c.usesOldSelf();
      if (usesOldSelf && old == null && !rule.optionalOldSelf()) {
        continue;
      }
      // Ratcheting: an unchanged value is not held to rules that do not look at oldSelf; their
      // errors become warnings.
      List<FieldError> out = !usesOldSelf && unchanged ? warnings : errs;
      if (selfView == null) {
        selfView = CelView.of(s, v, s.resource);
        oldView = old == null ? null : CelView.of(s, old, s.resource);
      }
      Map<String, Value> bindings = !rule.optionalOldSelf() && oldView != null
          ? Map.of("self", selfView, "oldSelf", oldView) : Map.of("self", selfView);
      Map<String, Optional<Value>> optionals = rule.optionalOldSelf()
          ? Map.of("oldSelf", Optional.ofNullable(oldView)) : Map.of();
      Value result;
      try {
        if (budget.tracked) {
          CelResult r = c.program().get().evaluate(bindings, optionals,
              budget.perCallLimit);
          if (r.cost() > budget.remaining) {
            errs.add(FieldError.invalid(at, Value.of(type), OUT_OF_BUDGET));
            budget.remaining = -1;
            return;
          }
          budget.remaining -= r.cost();
          result = r.value();
        } else {
          result = c.program().get().evaluate(bindings, optionals);
        }
      } catch (CelException e) {
        if (budget.tracked) {
          if (e.cost() > budget.remaining) {
            errs.add(FieldError.invalid(at, Value.of(type), OUT_OF_BUDGET));
            budget.remaining = -1;
            return;
          }
          budget.remaining -= e.cost();
          if (e.kind() == CelException.Kind.COST_LIMIT) {
            errs.add(FieldError.invalid(at, Value.of(type), "'" + e.getMessage()
                + "': no further validation rules will be run due to call cost exceeds limit"
                + " for rule: " + ruleErrorString(rule)));
            budget.remaining = -1;
            return;
          }
        }
        errs.add(FieldError.invalid(at, Value.of(type), e.getMessage() + " evaluating rule: "
            + ruleErrorString(rule)));
        continue;
      }
      if (result instanceof BooleanValue b && b.value()) {
        continue;
      }
      String errPath = path;
      if (!rule.fieldPath().isEmpty()) {
        errPath = appendFieldPath(s, path, rule.fieldPath()).orElse(path);
      }
      String detail = null;
      if (c.messageProgram().isPresent()) {
        try {
          Value msg;
          if (budget.tracked) {
            CelResult r = c.messageProgram().get().evaluate(bindings, optionals,
                budget.perCallLimit);
            if (r.cost() > budget.remaining) {
              out.add(FieldError.invalid(SchemaValidation.field(errPath), Value.of(type),
                  "messageExpression evaluation failed due to running out of cost budget, no"
                  + " further validation rules will be run"));
              budget.remaining = -1;
              return;
            }
            budget.remaining -= r.cost();
            msg = r.value();
          } else {
            msg = c.messageProgram().get().evaluate(bindings, optionals);
          }
          // Like kube, a message that is not a non-empty single-line string of at most 5 KiB
          // is ignored in favour of the rule's message.
          if (msg instanceof StringValue str) {
            String trimmed = str.value().trim();
            if (!trimmed.isEmpty() && !trimmed.contains("\n")
                && trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 5 * 1024) {
              detail = trimmed;
            }
          }
        } catch (CelException e) {
          if (budget.tracked) {
            if (e.cost() > budget.remaining) {
              out.add(FieldError.invalid(SchemaValidation.field(errPath), Value.of(type),
                  "messageExpression evaluation failed due to running out of cost budget, no"
                  + " further validation rules will be run"));
              budget.remaining = -1;
              return;
            }
            if (e.kind() == CelException.Kind.COST_LIMIT) {
              out.add(FieldError.invalid(SchemaValidation.field(errPath), Value.of(type),
                  "no further validation rules will be run due to call cost exceeds limit for"
                  + " messageExpression: " + goQuote(rule.messageExpression())));
              budget.remaining = -1;
              return;
            }
            budget.remaining -= e.cost();
          }
          // kube logs a failed messageExpression and falls back to the message.
        }
      }
      if (detail == null) {
        detail = rule.message().isEmpty() ? "failed rule: " + ruleErrorString(rule)
            : rule.message().trim();
      }
      out.add(error(SchemaValidation.field(errPath), v, detail, rule.reason()));
    }
  }

  private static FieldError error(String path, Value v, String detail, String reason) {
    boolean omit = v instanceof MapValue || v instanceof ListValue;
    switch (reason) {
      case "FieldValueForbidden":
        return FieldError.forbidden(path, detail);
      case "FieldValueRequired":
        return FieldError.required(path, detail);
      case "FieldValueDuplicate":
        return omit ? new FieldError(FieldError.Type.DUPLICATE, path, Optional.empty(), "")
            : FieldError.duplicate(path, v);
      default:
        return omit ? FieldError.invalidOmitValue(path, detail)
            : FieldError.invalid(path, v, detail);
    }
  }

  /** Go's {@code %q} of a string (kube quotes the messageExpression so). */
  static String goQuote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(ch);
      }
    }
    return sb.append('"').toString();
  }

  static String ruleErrorString(SchemaNode.Rule rule) {
    return rule.message().isEmpty() ? rule.rule().trim() : rule.message().trim();
  }

  /**
   * {@code path} followed by a rule's fieldPath ({@code .spec.x}, {@code ['a.b']}), resolved
   * against the schema as kube's {@code ValidFieldPath}: named fields are children, keys of maps
   * (additionalProperties) are {@code [key]}; empty when the path does not refer to a field.
   */
  static Optional<String> appendFieldPath(SchemaNode schema, String path, String fieldPath) {
    StringBuilder sb = new StringBuilder(path);
    SchemaNode s = schema;
    String fp = fieldPath;
    int i = 0;
    while (i < fp.length()) {
      char c = fp.charAt(i);
      String name;
      if (c == '.') {
        int end = i + 1;
        while (end < fp.length() && fp.charAt(end) != '.' && fp.charAt(end) != '[') {
          end++;
        }
        name = fp.substring(i + 1, end);
        i = end;
        if (name.isEmpty()) {
          return Optional.empty();
        }
        SchemaNode child = s.properties.get(name);
        if (child == null) {
          return Optional.empty();
        }
        sb.append(sb.length() > 0 ? "." : "").append(name);
        s = child;
      } else if (c == '[') {
        if (i + 1 >= fp.length() || fp.charAt(i + 1) != '\'') {
          return Optional.empty();
        }
        int end = i + 2;
        StringBuilder key = new StringBuilder();
        while (end < fp.length() && fp.charAt(end) != '\'') {
          if (fp.charAt(end) == '\\' && end + 1 < fp.length()) {
            end++;
          }
          key.append(fp.charAt(end));
          end++;
        }
        if (end + 1 >= fp.length() || fp.charAt(end + 1) != ']') {
          return Optional.empty();
        }
        i = end + 2;
        name = key.toString();
        if (!s.properties.isEmpty()) {
          SchemaNode child = s.properties.get(name);
          if (child == null) {
            return Optional.empty();
          }
          sb.append(sb.length() > 0 ? "." : "").append(name);
          s = child;
        } else if (s.additionalProperties != null) {
          sb.append('[').append(name).append(']');
          s = s.additionalProperties;
        } else {
          return Optional.empty();
        }
      } else {
        return Optional.empty();
      }
    }
    return Optional.of(sb.toString());
  }
}
