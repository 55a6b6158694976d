/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's own CEL validation tables ({@code TestValidationExpressions} and
 * {@code TestValidationExpressionsAtSchemaLevels} of apiextensions-apiserver's
 * {@code pkg/apiserver/schema/cel}), run as kube runs them: each valid rule on its schema must
 * give no error (and, where the table says, cost exactly what kube counts or nothing when
 * skipped); each failing rule must give errors that are all {@code Invalid} and all contain
 * kube's text. Cases this implementation still answers differently are listed with kube's answer
 * and ours in {@code kube-cel-validation-differs.yaml}; each is checked to still differ, so that
 * a fix shows here.
 */
class KubeCelValidationTablesTest {
  private static final MapValue TABLES = (MapValue) read("kube-cel-validation-cases.yaml");
  private static final Map<String, String> DIFFERS = differs();

  private static Value read(String resource) {
    try (InputStream in = KubeCelValidationTablesTest.class.getResourceAsStream(resource)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      // the fixture is JSON after its comment lines
      return Json.read(text.lines().filter(l -> !l.startsWith("#"))
          .collect(Collectors.joining("\n")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> differs() {
    Map<String, String> out = new LinkedHashMap<>();
    Value v = read("kube-cel-validation-differs.yaml");
    for (Value d : ((ListValue) ((MapValue) v).getOrNull("differs")).items()) {
      MapValue m = (MapValue) d;
      out.put(str(m, "case") + " / " + str(m, "rule"), str(m, "kube"));
    }
    return out;
  }

  private static String str(MapValue m, String key) {
    return m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  /** One expectation of kube's tables: a rule that must hold or fail with a text. */
  record Case(String id, MapValue table, String rule, Optional<String> error) {
    @Override
    public String toString() {
      return id;
    }
  }

  static List<Case> expressionCases() {
    List<Case> out = new ArrayList<>();
    for (Value t : ((ListValue) TABLES.getOrNull("expressions")).items()) {
      MapValue table = (MapValue) t;
      for (Value rule : ((ListValue) table.getOrNull("valid")).items()) {
        String r = ((StringValue) rule).value();
        out.add(new Case(str(table, "name") + " / " + r, table, r, Optional.empty()));
      }
      ((MapValue) table.getOrNull("errors")).forEach((r, text) -> out.add(new Case(
          str(table, "name") + " / " + r, table, r,
          Optional.of(((StringValue) text).value()))));
    }
    return out;
  }

  static Stream<Arguments> expressions() {
    return expressionCases().stream().map(c -> Arguments.of(c.id(), c));
  }

  static Stream<Arguments> schemaLevels() {
    return ((ListValue) TABLES.getOrNull("schemaLevels")).items().stream()
        .map(t -> Arguments.of(str((MapValue) t, "name"), t));
  }

  /** What kube's loop checks of one rule; empty when it holds as kube says. */
  static Optional<String> miss(Case c) {
    MapValue t = c.table();
    MapValue schema = ((MapValue) t.getOrNull("schema")).with("x-kubernetes-validations",
        ListValue.of(List.of(MapValue.ofEntries("rule", Value.of(c.rule())))));
    // kube's valid rules run with the table's isRoot, its failing rules as the root
    boolean root = c.error().isPresent() || t.getOrNull("isRoot") instanceof BooleanValue b
        && b.value();
    SchemaNode s = root ? SchemaNode.parse(schema) : SchemaNode.parseBelowRoot(schema);
    Value old = t.getOrNull("oldObject");
    long budget = t.getOrNull("costBudget") instanceof IntegerValue n ? n.value()
        : CelCostLimits.RUNTIME_CEL_COST_BUDGET;
    List<FieldError> errs = new ArrayList<>();
    long remaining = CelValidation.validate(s, t.getOrNull("object"),
        old == null || old.isNull() ? null : old, "root", errs, new ArrayList<>(), budget,
        CelCostLimits.PER_CALL_LIMIT, CelValidation.CostTracking.ALWAYS);
    if (c.error().isEmpty()) {
      if (!errs.isEmpty()) {
        return Optional.of("errors " + errs);
      }
      if (t.getOrNull("expectedCost") instanceof IntegerValue cost
          && budget - remaining != cost.value()) {
        return Optional.of("cost " + (budget - remaining) + ", kube " + cost.value());
      }
      if (t.getOrNull("expectSkipped") instanceof BooleanValue skipped && skipped.value()
          && remaining != budget) {
        return Optional.of("cost " + (budget - remaining) + " of a skipped rule");
      }
      return Optional.empty();
    }
    if (errs.isEmpty()) {
      return Optional.of("no error");
    }
    for (FieldError e : errs) {
      if (e.type() != FieldError.Type.INVALID || !e.toString().contains(c.error().get())) {
        return Optional.of("error " + e);
      }
    }
    return Optional.empty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expressions")
  void validationExpressions(String id, Case c) {
    Optional<String> miss = miss(c);
    String known = DIFFERS.get(id);
    if (known != null) {
      assertThat(miss).as("a listed difference (kube: %s) no longer differs", known).isPresent();
      return;
    }
    assertThat(miss).as("kube: %s", c.error().map(e -> "an error containing " + e)
        .orElse("valid")).isEmpty();
  }

  @Test
  void listedDifferencesAreCasesOfTheTables() {
    List<String> ids = expressionCases().stream().map(Case::id).toList();
    List<String> all = new ArrayList<>(ids);
    ((ListValue) TABLES.getOrNull("schemaLevels")).items()
        .forEach(t -> all.add(str((MapValue) t, "name") + " / "));
    assertThat(all).containsAll(DIFFERS.keySet());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemaLevels")
  void validationExpressionsAtSchemaLevels(String name, MapValue t) {
    Optional<String> miss = schemaLevelMiss(t);
    String known = DIFFERS.get(name + " / ");
    if (known != null) {
      assertThat(miss).as("a listed difference (kube: %s) no longer differs", known).isPresent();
      return;
    }
    assertThat(miss).as("kube: errors containing %s", t.getOrNull("errors")).isEmpty();
  }

  /** What kube's loop checks of one schema: every error expected, and each matched once. */
  static Optional<String> schemaLevelMiss(MapValue t) {
    List<FieldError> errs = new ArrayList<>();
    Value old = t.getOrNull("oldObject");
    CelValidation.validate(SchemaNode.parse(t.getOrNull("schema")), t.getOrNull("object"),
        old == null || old.isNull() ? null : old, "root", errs, new ArrayList<>(),
        Long.MAX_VALUE, CelCostLimits.PER_CALL_LIMIT, CelValidation.CostTracking.ALWAYS);
    List<String> unmatched = new ArrayList<>();
    for (Value e : ((ListValue) t.getOrNull("errors")).items()) {
      unmatched.add(((StringValue) e).value());
    }
    for (FieldError e : errs) {
      String text = e.toString();
      Optional<String> match = unmatched.stream().filter(text::contains).findFirst();
      if (e.type() != FieldError.Type.INVALID || match.isEmpty()) {
        return Optional.of("error " + text);
      }
      unmatched.remove(match.get());
    }
    return unmatched.isEmpty() ? Optional.empty() : Optional.of("errors " + errs);
  }
}
