/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schema part of kube's CRD validation: structural invariants (a type on every specified
 * level, items for arrays, an object at the root, no additionalProperties at the root, no
 * {@code uniqueItems: true}), defaults that validate against their schema, and CEL rules that
 * compile.
 */
public final class DefinitionValidation {
  private enum Level { ROOT, ITEM, FIELD }

  private static final java.util.Set<String> REASONS = new java.util.TreeSet<>(List.of(
      "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"));

  private DefinitionValidation() {}

  public static List<FieldError> validate(MapValue crd) {
    return validate(crd, java.util.Set.of());
  }

  /**
   * Validates an update: as kube, versions whose schema is unchanged from the stored CRD are
   * not held to the per-expression cost limit (so that a change of cost model does not reject
   * what was accepted), though their costs still count toward the per-CRD total.
   *
   * @param unchangedVersions names of the versions whose schema is unchanged
   */
  public static List<FieldError> validate(MapValue crd, java.util.Set<String> unchangedVersions) {
    return validate(crd, unchangedVersions, true, true);
  }

  /**
   * Validates a create or an update with kube's ratchets of its update validation.
   *
   * @param unchangedVersions names of the versions whose schema is unchanged
   * @param requireValidTypes whether every {@code type} must be an OpenAPI v3 type (kube's
   *     {@code requireValidPropertyType}: on updates only when the stored CRD had only valid
   *     types)
   * @param requireStructural whether value validations must be structural (kube's
   *     {@code requireStructuralSchema}: on updates only when the stored CRD's were)
   */
  public static List<FieldError> validate(MapValue crd, java.util.Set<String> unchangedVersions,
      boolean requireValidTypes, boolean requireStructural) {
    List<FieldError> errs = new ArrayList<>();
    if (!(crd.getOrNull("spec") instanceof MapValue spec)
        || !(spec.getOrNull("versions") instanceof ListValue versions) || versions.isEmpty()) {
      return errs;
    }
    // kube validates its internal form, where what all versions share is set once on the spec
    // (a schema as spec.validation)
    boolean sharedSchema = identical(versions, "schema");
    for (int i = 0; i < versions.size(); i++) {
      MapValue root = null;
      if (versions.get(i) instanceof MapValue v && v.getOrNull("schema") instanceof MapValue sc
          && sc.getOrNull("openAPIV3Schema") instanceof MapValue r) {
        root = r;
        if (!sharedSchema) {
          walkRoot(SchemaNode.parseShared(root),
              "spec.versions[" + i + "].schema.openAPIV3Schema", errs,
              unchangedVersions.contains(versionName(v)), requireValidTypes, requireStructural);
        }
      }
      if (!identical(versions, "selectableFields") && versions.get(i) instanceof MapValue v
          && v.getOrNull("selectableFields") instanceof ListValue fields && !fields.isEmpty()) {
        String at = "spec.versions[" + i + "].selectableFields";
        if (root == null) {
          // kube's text, negation included
          errs.add(FieldError.invalid(at, Value.of(""),
              "may only be set when `version.schema.openAPIV3Schema` is not included"));
        } else {
          selectableFields(fields, SchemaNode.parseShared(root), at, errs);
        }
      }
    }
    if (sharedSchema && versions.get(0) instanceof MapValue v0
        && v0.getOrNull("schema") instanceof MapValue sc
        && sc.getOrNull("openAPIV3Schema") instanceof MapValue r) {
      // kube suppresses the shared schema's per-expression limit by the first version's name
      walkRoot(SchemaNode.parseShared(r), "spec.validation.openAPIV3Schema", errs,
          unchangedVersions.contains(versionName(v0)), requireValidTypes, requireStructural);
    }
    boolean sharedColumns = identical(versions, "additionalPrinterColumns");
    for (int i = 0; i < versions.size(); i++) {
      if ((i == 0 || !sharedColumns) && versions.get(i) instanceof MapValue v
          && v.getOrNull("additionalPrinterColumns") instanceof ListValue columns) {
        String at = sharedColumns ? "spec.additionalPrinterColumns"
            : "spec.versions[" + i + "].additionalPrinterColumns";
        for (int j = 0; j < columns.size(); j++) {
          printerColumn(columns.get(j) instanceof MapValue c ? c : MapValue.empty(),
              at + "[" + j + "]", errs);
        }
      }
    }
    if (identical(versions, "selectableFields") && versions.get(0) instanceof MapValue first
        && first.getOrNull("selectableFields") instanceof ListValue fields && !fields.isEmpty()) {
      Value schema = identical(versions, "schema") ? first.getOrNull("schema") : null;
      if (schema instanceof MapValue sc && sc.getOrNull("openAPIV3Schema") instanceof MapValue r) {
        selectableFields(fields, SchemaNode.parseShared(r), "spec.selectableFields", errs);
      } else {
        errs.add(FieldError.invalid("spec.selectableFields", Value.of(""),
            "may only be set when validations.schema is included"));
      }
    }
    return errs;
  }

  private static final String COLUMN_TYPES = "must be one of boolean,date,integer,number,string";
  private static final String COLUMN_FORMATS =
      "must be one of byte,date,date-time,double,float,int32,int64,password";

  /** kube's ValidateCustomResourceColumnDefinition (its field name JSONPath included). */
  private static void printerColumn(MapValue c, String at, List<FieldError> errs) {
    String name = c.getOrNull("name") instanceof io.apiserver4j.core.StringValue n ? n.value() : "";
    String type = c.getOrNull("type") instanceof io.apiserver4j.core.StringValue t ? t.value() : "";
    String format = c.getOrNull("format") instanceof io.apiserver4j.core.StringValue f
        ? f.value() : "";
    String path = c.getOrNull("jsonPath") instanceof io.apiserver4j.core.StringValue p
        ? p.value() : "";
    if (name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", ""));
    }
    if (type.isEmpty()) {
      errs.add(FieldError.required(at + ".type", COLUMN_TYPES));
    } else if (!List.of("boolean", "date", "integer", "number", "string").contains(type)) {
      errs.add(FieldError.invalid(at + ".type", Value.of(type), COLUMN_TYPES));
    }
    if (!format.isEmpty() && !List.of("byte", "date", "date-time", "double", "float", "int32",
        "int64", "password").contains(format)) {
      errs.add(FieldError.invalid(at + ".format", Value.of(format), COLUMN_FORMATS));
    }
    if (path.isEmpty()) {
      errs.add(FieldError.required(at + ".JSONPath", ""));
    } else if (path.charAt(0) != '.') {
      errs.add(FieldError.invalid(at + ".JSONPath", Value.of(path),
          "must be a simple json path starting with ."));
    }
  }

  /** Whether all versions have the same {@code field} (kube then sets it on the spec). */
  private static String versionName(MapValue version) {
    return version.getOrNull("name") instanceof io.apiserver4j.core.StringValue n ? n.value()
        : "";
  }

  /**
   * Whether a stored CRD's schemas meet the checks kube ratchets on updates.
   *
   * @return {validTypes, structural}: whether all its types are OpenAPI v3 types, and whether
   *     its value validations are structural
   */
  public static boolean[] ratchets(MapValue old) {
    boolean validTypes = true;
    boolean structural = true;
    if (old.getOrNull("spec") instanceof MapValue spec
        && spec.getOrNull("versions") instanceof ListValue versions) {
      for (Value v : versions.items()) {
        if (v instanceof MapValue m && m.getOrNull("schema") instanceof MapValue sc
            && sc.getOrNull("openAPIV3Schema") instanceof MapValue r) {
          validTypes &= SchemaShapeChecks.hasOnlyValidTypes(r);
          List<FieldError> nonStructural = new ArrayList<>();
          SchemaShapeChecks.structural(r, "", nonStructural);
          structural &= nonStructural.isEmpty();
        }
      }
    }
    return new boolean[] {validTypes, structural};
  }

  private static boolean identical(ListValue versions, String field) {
    Value first = versions.get(0) instanceof MapValue m ? m.getOrNull(field) : null;
    for (Value v : versions.items()) {
      Value x = v instanceof MapValue m ? m.getOrNull(field) : null;
      if (!java.util.Objects.equals(x == null || x.isNull() ? null : x,
          first == null || first.isNull() ? null : first)) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code MaxSelectableFields}. */
  static final int MAX_SELECTABLE_FIELDS = 8;

  /**
   * kube's checks of a version's selectableFields: each a path to a field of the schema outside
   * metadata, of type string, boolean or integer, no path twice, at most 8.
   */
  private static void selectableFields(ListValue fields, SchemaNode root, String at,
      List<FieldError> errs) {
    java.util.Set<String> unique = new java.util.HashSet<>();
    for (int i = 0; i < fields.size(); i++) {
      String path = at + "[" + i + "].jsonPath";
      String jsonPath = fields.get(i) instanceof MapValue f
          && f.getOrNull("jsonPath") instanceof io.apiserver4j.core.StringValue s ? s.value() : "";
      if (jsonPath.isEmpty()) {
        errs.add(FieldError.required(path, ""));
        continue;
      }
      FieldPath found;
      try {
        found = FieldPath.resolve(root, jsonPath);
      } catch (IllegalArgumentException e) {
        errs.add(FieldError.invalid(path, Value.of(jsonPath),
            "is an invalid path: " + e.getMessage()));
        continue;
      }
      if (found.root().equals("metadata")) {
        errs.add(FieldError.invalid(path, Value.of(jsonPath), "must not point to fields in"
            + " metadata"));
      }
      String type = found.schema() == null ? "" : found.schema().type;
      if (!type.equals("string") && !type.equals("boolean") && !type.equals("integer")) {
        errs.add(FieldError.invalid(path, Value.of(jsonPath), "must point to a field of type"
            + " string, boolean or integer. Enum string fields and strings with formats are"
            + " allowed."));
      }
      if (!unique.add(found.path())) {
        errs.add(FieldError.duplicate(path, Value.of(jsonPath)));
      }
    }
    if (unique.size() > MAX_SELECTABLE_FIELDS) {
      errs.add(new FieldError(FieldError.Type.TOO_MANY, at,
          Optional.of(Value.of((long) unique.size())),
          "must have at most " + MAX_SELECTABLE_FIELDS + " items"));
    }
  }

  /**
   * kube's metadata invariants: an object wherever it is a resource's metadata, and at the
   * root nothing but constraints on name and generateName.
   */
  private static void metadata(SchemaNode m, boolean resource, boolean root, String path,
      List<FieldError> errs) {
    if (resource && !m.type.equals("object")) {
      errs.add(FieldError.invalid(path + ".type", Value.of(m.type), "must be object"));
    }
    if (!root) {
      return;
    }
    boolean onlyNames = m.properties.keySet().stream()
        .allMatch(k -> k.equals("name") || k.equals("generateName"));
    for (String k : m.raw.asMap().keySet()) {
      boolean allowed = k.equals("type") || k.equals("default")
          || (k.equals("properties") && onlyNames);
      if (!allowed) {
        errs.add(FieldError.forbidden(path, "must not specify anything other than name and"
            + " generateName, but metadata is implicitly specified"));
        return;
      }
    }
  }

  /** kube's checks of x-kubernetes-map-type, -list-type and -list-map-keys. */
  private static void extensions(SchemaNode s, String path, List<FieldError> errs) {
    if (s.raw.getOrNull("x-kubernetes-preserve-unknown-fields") instanceof BooleanValue b
        && !b.value()) {
      errs.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields", b,
          "must be true or undefined"));
    }
    if (!s.mapType.isEmpty()) {
      if (!s.type.equals("object")) {
        errs.add(s.type.isEmpty()
            ? FieldError.required(path + ".type", "must be object if x-kubernetes-map-type is specified")
            : FieldError.invalid(path + ".type", Value.of(s.type),
                "must be object if x-kubernetes-map-type is specified"));
      }
      if (!s.mapType.equals("atomic") && !s.mapType.equals("granular")) {
        errs.add(FieldError.notSupported(path + ".x-kubernetes-map-type", Value.of(s.mapType),
            List.of("atomic", "granular")));
      }
    }
    if (!s.listType.isEmpty()) {
      if (!s.type.equals("array")) {
        errs.add(s.type.isEmpty()
            ? FieldError.required(path + ".type", "must be array if x-kubernetes-list-type is specified")
            : FieldError.invalid(path + ".type", Value.of(s.type),
                "must be array if x-kubernetes-list-type is specified"));
      } else if (s.listType.equals("set") && s.items != null) {
        if (s.items.type.equals("array") && !s.items.listType.isEmpty()
            && !s.items.listType.equals("atomic")) {
          errs.add(FieldError.invalid(path + ".items.x-kubernetes-list-type",
              Value.of(s.items.listType), "must be atomic as item of a list with"
                  + " x-kubernetes-list-type=set"));
        } else if (s.items.type.equals("object") && !s.items.mapType.equals("atomic")) {
          errs.add(FieldError.invalid(path + ".items.x-kubernetes-map-type",
              Value.of(s.items.mapType), "must be atomic as item of a list with"
                  + " x-kubernetes-list-type=set"));
        }
      }
      if (!List.of("atomic", "set", "map").contains(s.listType)) {
        errs.add(FieldError.notSupported(path + ".x-kubernetes-list-type", Value.of(s.listType),
            List.of("atomic", "set", "map")));
      }
    }
    if (!s.listMapKeys.isEmpty()) {
      if (s.listType.isEmpty()) {
        errs.add(FieldError.required(path + ".x-kubernetes-list-type",
            "must be map if x-kubernetes-list-map-keys is non-empty"));
      } else if (!s.listType.equals("map")) {
        errs.add(FieldError.invalid(path + ".x-kubernetes-list-type", Value.of(s.listType),
            "must be map if x-kubernetes-list-map-keys is non-empty"));
      }
    }
    if ((s.listType.equals("map") || s.listType.equals("set")) && s.items != null) {
      if (s.items.nullable) {
        errs.add(FieldError.forbidden(path + ".items.nullable",
            "cannot be nullable when x-kubernetes-list-type is " + s.listType));
      }
      if (s.listType.equals("map")) {
        for (String k : s.listMapKeys) {
          SchemaNode ks = s.items.properties.get(k);
          if (ks == null) {
            continue;
          }
          if (!s.items.required.contains(k) && ks.defaultValue == null) {
            errs.add(FieldError.required(path + ".items.properties[" + k + "].default",
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be"
                    + " a required property"));
          }
          if (ks.nullable) {
            errs.add(FieldError.forbidden(path + ".items.properties[" + k + "].nullable",
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
          }
        }
      }
    }
    if (s.listType.equals("map")) {
      if (s.listMapKeys.isEmpty()) {
        errs.add(FieldError.required(path + ".x-kubernetes-list-map-keys",
            "must not be empty if x-kubernetes-list-type is map"));
      }
      if (s.items == null) {
        errs.add(FieldError.required(path + ".items",
            "must have a schema if x-kubernetes-list-type is map"));
      } else if (!s.items.type.equals("object")) {
        errs.add(FieldError.invalid(path + ".items.type", Value.of(s.items.type),
            "must be object if parent array's x-kubernetes-list-type is map"));
      } else {
        java.util.Set<String> seen = new java.util.HashSet<>();
        Value keys = s.raw.getOrNull("x-kubernetes-list-map-keys");
        for (String k : s.listMapKeys) {
          SchemaNode ks = s.items.properties.get(k);
          if (ks == null) {
            errs.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", keys,
                "entries must all be names of item properties"));
          } else if (ks.type.equals("array") || ks.type.equals("object")) {
            errs.add(FieldError.invalid(path + ".items.properties[" + k + "].type",
                Value.of(s.items.type),
                "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
          if (!seen.add(k)) {
            errs.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", keys,
                "must not contain duplicate entries"));
          }
        }
      }
    }
  }

  /**
   * Walks a version's schema, then applies kube's per-CRD limit on the estimated cost of all its
   * CEL expressions: the most expensive ones and the schema are reported when it is exceeded.
   */
  private static void walkRoot(SchemaNode root, String path, List<FieldError> errs,
      boolean unchanged, boolean requireValidTypes, boolean requireStructural) {
    SchemaShapeChecks.standard(root.raw, path, requireValidTypes, errs);
    if (requireStructural) {
      SchemaShapeChecks.structural(root.raw, path, errs);
    }
    CelCostLimits.TotalCost total = new CelCostLimits.TotalCost(unchanged);
    walk(root, Level.ROOT, path, null, errs, 1, total);
    if (total.total() > CelCostLimits.STATIC_ESTIMATED_CRD_COST_LIMIT) {
      for (CelCostLimits.RuleCost expensive : total.mostExpensive()) {
        errs.add(FieldError.forbidden(expensive.path(), "contributed to estimated rule cost"
            + " total exceeding cost limit for entire OpenAPIv3 schema"));
      }
      errs.add(FieldError.forbidden(path, CelCostLimits.costErrorMessage(
          "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
          total.total(), CelCostLimits.STATIC_ESTIMATED_CRD_COST_LIMIT)));
    }
  }

  /**
   * @param uncorrelatable the path of the highest ancestor below which old and new values do
   *     not correlate (items of lists that are not list-type map, atomic maps); null if none
   * @param cardinality how many values of this schema one object may hold (kube's
   *     {@code MaxCardinality}); {@link CelCostLimits#UNBOUNDED} when unbounded
   */
  private static void walk(SchemaNode s, Level level, String path, String uncorrelatable,
      List<FieldError> errs, long cardinality, CelCostLimits.TotalCost total) {
    long childCardinality = CelCostLimits.childCardinality(s, cardinality);
    if (s.type.equals("array") && s.items == null) {
      errs.add(FieldError.required(path + ".items", "must be specified"));
    }
    if (s.items != null) {
      walk(s.items, Level.ITEM, path + ".items", uncorrelatable != null || s.listType.equals("map")
          ? uncorrelatable : path, errs, childCardinality, total);
    }
    String forProperties = uncorrelatable == null && s.mapType.equals("atomic") ? path
        : uncorrelatable;
    for (Map.Entry<String, SchemaNode> p : s.properties.entrySet()) {
      walk(p.getValue(), Level.FIELD, path + ".properties[" + p.getKey() + "]", forProperties,
          errs, childCardinality, total);
    }
    if (s.additionalProperties != null) {
      if (level == Level.ROOT) {
        errs.add(FieldError.forbidden(path + ".additionalProperties", "must not be used at the root"));
      }
      walk(s.additionalProperties, Level.FIELD, path + ".additionalProperties", forProperties,
          errs, childCardinality, total);
    }
    if (s.additionalPropertiesForbidden) {
      errs.add(FieldError.forbidden(path + ".additionalProperties",
          "additionalProperties cannot be set to false"));
    }
    if (s.uniqueItems) {
      errs.add(FieldError.forbidden(path + ".uniqueItems",
          "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    }
    if (s.embeddedResource && !s.type.equals("object")) {
      errs.add(s.type.isEmpty()
          ? FieldError.required(path + ".type",
              "must be object if x-kubernetes-embedded-resource is true")
          : FieldError.invalid(path + ".type", Value.of(s.type),
              "must be object if x-kubernetes-embedded-resource is true"));
    } else if (s.type.isEmpty() && !s.intOrString && !s.preserveUnknownFields) {
      String msg = switch (level) {
        case ROOT -> "must not be empty at the root";
        case ITEM -> "must not be empty for specified array items";
        case FIELD -> "must not be empty for specified object fields";
      };
      errs.add(FieldError.required(path + ".type", msg));
    }
    if (level == Level.ROOT && !s.type.isEmpty() && !s.type.equals("object")) {
      errs.add(FieldError.invalid(path + ".type", Value.of(s.type), "must be object at the root"));
    }
    extensions(s, path, errs);
    SchemaNode metadata = s.properties.get("metadata");
    if (metadata != null) {
      metadata(metadata, level == Level.ROOT || s.embeddedResource, level == Level.ROOT,
          path + ".properties[metadata]", errs);
    }
    if (s.pattern != null && SchemaValidation.pattern(s.pattern) instanceof String error) {
      errs.add(FieldError.invalid(path + ".pattern", Value.of(s.pattern), error));
    }
    if (s.defaultValue != null) {
      if (level == Level.ROOT) {
        errs.add(FieldError.forbidden(path + ".default", "must not be set at the root"));
      } else {
        // kube validates a default as an object of its own schema, on the path of the default.
        List<FieldError> defaultErrs = new ArrayList<>(
            SchemaValidation.validate(s, s.defaultValue, Optional.empty()));
        CelValidation.validate(s, s.defaultValue, null, "", defaultErrs);
        for (FieldError e : defaultErrs) {
          String field = e.field().equals("<nil>") ? path + ".default"
              : path + ".default." + e.field();
          errs.add(new FieldError(e.type(), field, e.badValue(), e.detail()));
        }
        if (defaultErrs.isEmpty()) {
          List<String> unknown = new ArrayList<>();
          Defaulting.prune(s, s.defaultValue, false, unknown::add);
          if (!unknown.isEmpty()) {
            errs.add(FieldError.invalid(path + ".default", s.defaultValue,
                "must not have unknown fields"));
          }
        }
      }
    }
    if (s.additionalProperties != null && !s.properties.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".additionalProperties",
          "additionalProperties and properties are mutual exclusive"));
    }
    for (int i = 0; i < s.compiledRules.size(); i++) {
      SchemaNode.CompiledRule c = s.compiledRules.get(i);
      SchemaNode.Rule rule = c.rule();
      String at = path + ".x-kubernetes-validations[" + i + "]";
      int before = errs.size();
      String message = rule.message().trim();
      MapValue raw = s.raw.getOrNull("x-kubernetes-validations") instanceof ListValue l
          && l.get(i) instanceof MapValue m ? m : MapValue.empty();
      if (rule.rule().isBlank()) {
        errs.add(FieldError.required(at + ".rule", "rule is not specified"));
      } else if (!rule.message().isEmpty() && message.isEmpty()) {
        errs.add(FieldError.invalid(at + ".message", Value.of(rule.message()),
            "must be non-empty if specified"));
      } else if (message.contains("\n")) {
        errs.add(FieldError.invalid(at + ".message", Value.of(rule.message()),
            "must not contain line breaks"));
      } else if (rule.rule().trim().contains("\n") && message.isEmpty()) {
        errs.add(FieldError.required(at + ".message",
            "message must be specified if rule contains line breaks"));
      }
      if (!rule.messageExpression().isEmpty() && rule.messageExpression().isBlank()) {
        errs.add(FieldError.required(at + ".messageExpression",
            "messageExpression must be non-empty if specified"));
      }
      if (raw.containsKey("reason") && !REASONS.contains(rule.reason())) {
        errs.add(FieldError.notSupported(at + ".reason", Value.of(rule.reason()),
            List.copyOf(REASONS)));
      }
      if (!rule.fieldPath().isEmpty() && rule.fieldPath().isBlank()) {
        errs.add(FieldError.invalid(at + ".fieldPath", Value.of(rule.fieldPath()),
            "must be non-empty if specified"));
      }
      if (rule.fieldPath().contains("\n")) {
        errs.add(FieldError.invalid(at + ".fieldPath", Value.of(rule.fieldPath()),
            "must not contain line breaks"));
      }
      if (!rule.fieldPath().isBlank()
          && CelValidation.appendFieldPath(s, "", rule.fieldPath().trim()).isEmpty()) {
        errs.add(FieldError.invalid(at + ".fieldPath", Value.of(rule.fieldPath()),
            "must be a valid path"));
      }
      if (errs.size() > before || rule.rule().isBlank()) {
        continue;
      }
      // The CEL checks, as kube runs them once the rule is well-formed.
      long ruleCost = CelCostLimits.expressionCost(c.maxCost(), s, cardinality);
      if (!total.perExpressionSuppressed()
          && ruleCost > CelCostLimits.STATIC_ESTIMATED_COST_LIMIT) {
        errs.add(FieldError.forbidden(at + ".rule", CelCostLimits.costErrorMessage(
            "estimated rule cost", ruleCost, CelCostLimits.STATIC_ESTIMATED_COST_LIMIT)));
      }
      total.observe(at + ".rule", ruleCost);
      if (c.program().isEmpty()) {
        errs.add(FieldError.invalid(at + ".rule", Value.of(rule.rule()), c.compileError()));
      }
      if (!c.messageCompileError().isEmpty()) {
        errs.add(FieldError.invalid(at + ".messageExpression",
            Value.of(rule.messageExpression()), c.messageCompileError()));
      } else if (c.messageProgram().isPresent()) {
        // kube checks a messageExpression's own cost, without the cardinality
        long messageCost = c.messageMaxCost();
        if (!total.perExpressionSuppressed()
            && messageCost > CelCostLimits.STATIC_ESTIMATED_COST_LIMIT) {
          errs.add(FieldError.forbidden(at + ".messageExpression",
              CelCostLimits.costErrorMessage("estimated messageExpression cost", messageCost,
                  CelCostLimits.STATIC_ESTIMATED_COST_LIMIT)));
        }
        total.observe(at + ".messageExpression", messageCost);
      }
      if (c.usesOldSelf()) {
        if (uncorrelatable != null) {
          errs.add(FieldError.invalid(at + ".rule", Value.of(rule.rule()), "oldSelf cannot be"
              + " used on the uncorrelatable portion of the schema within " + uncorrelatable));
        }
      } else if (c.program().isPresent() && raw.containsKey("optionalOldSelf")) {
        errs.add(FieldError.invalid(at + ".optionalOldSelf", raw.getOrNull("optionalOldSelf"),
            "may not be set if oldSelf is not used in rule"));
      }
    }
  }
}
