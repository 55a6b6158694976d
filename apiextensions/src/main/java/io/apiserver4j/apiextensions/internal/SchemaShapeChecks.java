/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import java.util.List;
import java.util.Map;

/**
 * The checks of kube's CRD validation that read a schema as written rather than as parsed:
 * the OpenAPI v3 subset a CRD may use (kube's {@code specStandardValidatorV3}: known types,
 * no {@code $ref}, {@code id}, {@code additionalItems}, {@code patternProperties},
 * {@code definitions}, {@code dependencies}, no {@code type: null}, no tuple {@code items}) and
 * the structural invariants of the value validations under {@code allOf}, {@code anyOf},
 * {@code oneOf} and {@code not} (kube's {@code validateNestedValueValidation}).
 */
final class SchemaShapeChecks {
  /** kube's {@code openapiV3Types}, in the sorted order its message lists them. */
  static final List<String> TYPES =
      List.of("array", "boolean", "integer", "number", "object", "string");

  private SchemaShapeChecks() {}

  /**
   * Whether every {@code type} in the schema is one of {@link #TYPES}: kube only requires
   * valid types on an update when the stored CRD had them (its {@code requireValidPropertyType}
   * ratchet).
   */
  static boolean hasOnlyValidTypes(Value schema) {
    if (!(schema instanceof MapValue m)) {
      return true;
    }
    if (m.getOrNull("type") instanceof StringValue t && !t.value().isEmpty()
        && !TYPES.contains(t.value())) {
      return false;
    }
    for (Map.Entry<String, Value> e : m.asMap().entrySet()) {
      Value v = e.getValue();
      switch (e.getKey()) {
        case "items", "not", "additionalProperties", "additionalItems" -> {
          if (v instanceof ListValue l) {
            for (Value x : l.items()) {
              if (!hasOnlyValidTypes(x)) {
                return false;
              }
            }
          } else if (!hasOnlyValidTypes(v)) {
            return false;
          }
        }
        case "allOf", "anyOf", "oneOf" -> {
          if (v instanceof ListValue l) {
            for (Value x : l.items()) {
              if (!hasOnlyValidTypes(x)) {
                return false;
              }
            }
          }
        }
        case "properties", "patternProperties", "definitions", "dependencies" -> {
          if (v instanceof MapValue p) {
            for (Value x : p.asMap().values()) {
              if (!hasOnlyValidTypes(x)) {
                return false;
              }
            }
          }
        }
        default -> { }
      }
    }
    return true;
  }

  /**
   * kube's {@code specStandardValidatorV3} on every schema it visits: the properties,
   * additionalProperties, items (a schema or a list), not, allOf, oneOf, anyOf, definitions
   * and dependencies.
   *
   * @param requireValidTypes whether an unknown {@code type} is an error (always on a create)
   */
  static void standard(Value schema, String path, boolean requireValidTypes,
      List<FieldError> errs) {
    if (!(schema instanceof MapValue m)) {
      return;
    }
    String type = m.getOrNull("type") instanceof StringValue t ? t.value() : "";
    if (requireValidTypes && !type.isEmpty() && !TYPES.contains(type)) {
      errs.add(FieldError.notSupported(path + ".type", Value.of(type), TYPES));
    }
    if (m.getOrNull("id") instanceof StringValue id && !id.value().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".id", "id is not supported"));
    }
    if (present(m.getOrNull("additionalItems"))) {
      errs.add(FieldError.forbidden(path + ".additionalItems", "additionalItems is not supported"));
    }
    if (m.getOrNull("patternProperties") instanceof MapValue pp && !pp.asMap().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".patternProperties",
          "patternProperties is not supported"));
    }
    if (m.getOrNull("definitions") instanceof MapValue d && !d.asMap().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".definitions", "definitions is not supported"));
    }
    if (present(m.getOrNull("dependencies"))) {
      errs.add(FieldError.forbidden(path + ".dependencies", "dependencies is not supported"));
    }
    if (present(m.getOrNull("$ref"))) {
      errs.add(FieldError.forbidden(path + ".$ref", "$ref is not supported"));
    }
    if (type.equals("null")) {
      errs.add(FieldError.forbidden(path + ".type",
          "type cannot be set to null, use nullable as an alternative"));
    }
    Value items = m.getOrNull("items");
    if (items instanceof ListValue l && !l.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".items",
          "items must be a schema object and not an array"));
    }
    if (m.getOrNull("additionalProperties") instanceof MapValue ap) {
      standard(ap, path + ".additionalProperties", requireValidTypes, errs);
    }
    if (m.getOrNull("properties") instanceof MapValue props) {
      for (Map.Entry<String, Value> p : props.asMap().entrySet()) {
        standard(p.getValue(), path + ".properties[" + p.getKey() + "]", requireValidTypes, errs);
      }
    }
    standard(m.getOrNull("not"), path + ".not", requireValidTypes, errs);
    for (String junctor : List.of("allOf", "oneOf", "anyOf")) {
      if (m.getOrNull(junctor) instanceof ListValue l) {
        for (int i = 0; i < l.size(); i++) {
          standard(l.get(i), path + "." + junctor + "[" + i + "]", requireValidTypes, errs);
        }
      }
    }
    if (m.getOrNull("definitions") instanceof MapValue d) {
      for (Map.Entry<String, Value> p : d.asMap().entrySet()) {
        standard(p.getValue(), path + ".definitions[" + p.getKey() + "]", requireValidTypes,
            errs);
      }
    }
    if (items instanceof MapValue) {
      standard(items, path + ".items", requireValidTypes, errs);
    } else if (items instanceof ListValue l) {
      for (int i = 0; i < l.size(); i++) {
        standard(l.get(i), path + ".items[" + i + "]", requireValidTypes, errs);
      }
    }
    if (m.getOrNull("dependencies") instanceof MapValue d) {
      for (Map.Entry<String, Value> p : d.asMap().entrySet()) {
        // a dependency is a schema or a list of property names; only schemas are validated
        standard(p.getValue(), path + ".dependencies[" + p.getKey() + "]", requireValidTypes,
            errs);
      }
    }
  }

  /**
   * kube's structural invariants of value validations (its {@code validateValueValidation}
   * under {@code validateStructuralInvariants}), for the structural schema at {@code path}
   * and all structural schemas below it (properties, items, additionalProperties).
   */
  static void structural(Value schema, String path, List<FieldError> errs) {
    if (!(schema instanceof MapValue m)) {
      return;
    }
    if (m.getOrNull("items") instanceof MapValue items) {
      structural(items, path + ".items", errs);
    }
    if (m.getOrNull("properties") instanceof MapValue props) {
      for (Map.Entry<String, Value> p : props.asMap().entrySet()) {
        structural(p.getValue(), path + ".properties[" + p.getKey() + "]", errs);
      }
    }
    if (m.getOrNull("additionalProperties") instanceof MapValue ap) {
      structural(ap, path + ".additionalProperties", errs);
    }
    boolean intOrString = flag(m, "x-kubernetes-int-or-string");
    if (intOrString && flag(m, "x-kubernetes-preserve-unknown-fields")) {
      errs.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields",
          Value.of(true), "must be false if x-kubernetes-int-or-string is true"));
    }
    if (intOrString && flag(m, "x-kubernetes-embedded-resource")) {
      errs.add(FieldError.invalid(path + ".x-kubernetes-embedded-resource", Value.of(true),
          "must be false if x-kubernetes-int-or-string is true"));
    }
    if (flag(m, "x-kubernetes-embedded-resource") && m.getOrNull("additionalProperties") != null
        && !(m.getOrNull("additionalProperties") instanceof BooleanValue)) {
      errs.add(FieldError.forbidden(path + ".additionalProperties",
          "must not be used if x-kubernetes-embedded-resource is set"));
    }
    // kube recognizes the two int-or-string spellings only as the exact lists it builds
    boolean skipAnyOf = intOrStringAnyOf(m.getOrNull("anyOf"));
    boolean skipFirstAllOfAnyOf = m.getOrNull("allOf") instanceof ListValue all
        && !all.isEmpty() && all.get(0) instanceof MapValue first
        && intOrStringAnyOf(first.getOrNull("anyOf"));
    valueValidation(m, skipAnyOf, skipFirstAllOfAnyOf, path, errs, false);
  }

  private static boolean intOrStringAnyOf(Value anyOf) {
    return anyOf instanceof ListValue l && l.size() == 2
        && l.get(0).equals(MapValue.ofEntries("type", Value.of("integer")))
        && l.get(1).equals(MapValue.ofEntries("type", Value.of("string")));
  }

  /**
   * kube's {@code validateValueValidation}: the junctors of {@code m}, each a nested value
   * validation; the pattern only where {@code nested} (the structural levels check theirs in
   * {@link DefinitionValidation}).
   */
  private static void valueValidation(MapValue m, boolean skipAnyOf,
      boolean skipFirstAllOfAnyOf, String path, List<FieldError> errs, boolean nested) {
    if (!skipAnyOf && m.getOrNull("anyOf") instanceof ListValue l) {
      for (int i = 0; i < l.size(); i++) {
        nested(l.get(i), false, path + ".anyOf[" + i + "]", errs);
      }
    }
    if (m.getOrNull("allOf") instanceof ListValue l) {
      for (int i = 0; i < l.size(); i++) {
        nested(l.get(i), skipFirstAllOfAnyOf && i == 0, path + ".allOf[" + i + "]", errs);
      }
    }
    if (m.getOrNull("oneOf") instanceof ListValue l) {
      for (int i = 0; i < l.size(); i++) {
        nested(l.get(i), false, path + ".oneOf[" + i + "]", errs);
      }
    }
    nested(m.getOrNull("not"), false, path + ".not", errs);
    if (nested && m.getOrNull("pattern") instanceof StringValue p && !p.value().isEmpty()
        && SchemaValidation.pattern(p.value()) instanceof String error) {
      errs.add(FieldError.invalid(path + ".pattern", p, error));
    }
  }

  /** kube's {@code validateNestedValueValidation}: only value validations may be nested. */
  private static void nested(Value schema, boolean skipAnyOf, String path,
      List<FieldError> errs) {
    if (!(schema instanceof MapValue m)) {
      return;
    }
    valueValidation(m, skipAnyOf, false, path, errs, true);
    nested(m.getOrNull("items") instanceof MapValue items ? items : null, false,
        path + ".items", errs);
    if (m.getOrNull("properties") instanceof MapValue props) {
      for (Map.Entry<String, Value> p : props.asMap().entrySet()) {
        nested(p.getValue(), false, path + ".properties[" + p.getKey() + "]", errs);
      }
    }
    if (m.getOrNull("type") instanceof StringValue t && !t.value().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".type", "must be empty to be structural"));
    }
    if (present(m.getOrNull("additionalProperties"))) {
      errs.add(FieldError.forbidden(path + ".additionalProperties",
          "must be undefined to be structural"));
    }
    if (present(m.getOrNull("default"))) {
      errs.add(FieldError.forbidden(path + ".default", "must be undefined to be structural"));
    }
    if (m.getOrNull("title") instanceof StringValue t && !t.value().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".title", "must be empty to be structural"));
    }
    if (m.getOrNull("description") instanceof StringValue d && !d.value().isEmpty()) {
      errs.add(FieldError.forbidden(path + ".description", "must be empty to be structural"));
    }
    if (flag(m, "nullable")) {
      errs.add(FieldError.forbidden(path + ".nullable", "must be false to be structural"));
    }
    if (flag(m, "x-kubernetes-preserve-unknown-fields")) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-preserve-unknown-fields",
          "must be false to be structural"));
    }
    if (flag(m, "x-kubernetes-embedded-resource")) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-embedded-resource",
          "must be false to be structural"));
    }
    if (flag(m, "x-kubernetes-int-or-string")) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-int-or-string",
          "must be false to be structural"));
    }
    if (m.getOrNull("x-kubernetes-list-map-keys") instanceof ListValue k && !k.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-list-map-keys",
          "must be empty to be structural"));
    }
    if (present(m.getOrNull("x-kubernetes-list-type"))) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-list-type",
          "must be undefined to be structural"));
    }
    if (present(m.getOrNull("x-kubernetes-map-type"))) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-map-type",
          "must be undefined to be structural"));
    }
    if (m.getOrNull("x-kubernetes-validations") instanceof ListValue v && !v.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".x-kubernetes-validations",
          "must be empty to be structural"));
    }
    if (m.getOrNull("properties") instanceof MapValue props && props.containsKey("metadata")) {
      errs.add(FieldError.forbidden(path + ".properties[metadata]",
          "must not be specified in a nested context"));
    }
  }

  private static boolean present(Value v) {
    return v != null && !v.isNull();
  }

  private static boolean flag(MapValue m, String key) {
    return m.getOrNull(key) instanceof BooleanValue b && b.value();
  }
}
