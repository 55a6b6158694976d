/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import static io.apiserver4j.conformance.FixtureFields.bool;
import static io.apiserver4j.conformance.FixtureFields.list;
import static io.apiserver4j.conformance.FixtureFields.map;
import static io.apiserver4j.conformance.FixtureFields.onlyKeys;
import static io.apiserver4j.conformance.FixtureFields.required;
import static io.apiserver4j.conformance.FixtureFields.string;

import io.apiserver4j.conformance.CaseOutcome;
import io.apiserver4j.conformance.ConformanceRunner;
import io.apiserver4j.conformance.Fixture;
import io.apiserver4j.conformance.FixtureFields.FixtureFormatException;
import io.apiserver4j.conformance.FixtureSuite;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldsV1;
import io.apiserver4j.merge.Comparison;
import io.apiserver4j.merge.Duplicates;
import io.apiserver4j.merge.KeyFields;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code typed/} fixtures (README section 3): merge, toFieldSet, compare, remove/extract,
 * reversible extract, extract with keys, validation and field-set reconciliation on single typed
 * values. A file belongs to this suite when it has an {@code operation}.
 */
public final class TypedSuite implements FixtureSuite {
  private static final Set<String> FILE_KEYS = Set.of("testFunction", "sourceFile", "operation", "cases");
  private static final Set<String> CASE_KEYS = Set.of("name", "parser", "items");

  @Override
  public String name() {
    return "typed";
  }

  @Override
  public boolean accepts(Fixture fixture) {
    return fixture.content().containsKey("operation");
  }

  /** One item to check: its case (parser), its operation and its content. */
  public record Item(String name, String operation, FixtureParser parser, MapValue content) {}

  /**
   * Every item of the file, in order. A case whose parser cannot be built yields items that fail
   * with that error when run.
   */
  public List<Item> items(Fixture fixture) {
    MapValue doc = fixture.content();
    onlyKeys(doc, FILE_KEYS, "the fixture file");
    String operation = string(doc, "operation");
    ListValue cases = list(doc, "cases");
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      MapValue c = map(cases.get(i), "cases[" + i + "]");
      onlyKeys(c, CASE_KEYS, "cases[" + i + "]");
      String caseName = string(c, "name");
      FixtureParser parser = FixtureParser.from(map(required(c, "parser"), caseName + ".parser"));
      ListValue items = list(c, "items");
      for (int j = 0; j < items.size(); j++) {
        MapValue item = map(items.get(j), caseName + ".items[" + j + "]");
        String itemName = item.getOrNull("name") instanceof StringValue s ? s.value() : "items[" + j + "]";
        out.add(new Item(caseName + " / " + itemName, operation, parser, item));
      }
    }
    return out;
  }

  @Override
  public List<CaseOutcome> run(Fixture fixture) {
    List<Item> items;
    try {
      items = items(fixture);
    } catch (RuntimeException e) {
      return List.of(CaseOutcome.failed(fixture.name(), ConformanceRunner.WHOLE_FILE, e.getMessage()));
    }
    List<CaseOutcome> out = new ArrayList<>(items.size());
    for (Item item : items) {
      out.add(runItem(fixture.name(), item));
    }
    return out;
  }

  /** Checks one item. */
  public CaseOutcome runItem(String file, Item item) {
    try {
      String failure = check(item);
      return failure == null ? CaseOutcome.passed(file, item.name())
          : CaseOutcome.failed(file, item.name(), failure);
    } catch (FixtureFormatException e) {
      return CaseOutcome.failed(file, item.name(), "bad fixture: " + e.getMessage());
    } catch (RuntimeException e) {
      return CaseOutcome.failed(file, item.name(), "unexpected exception: " + e);
    }
  }

  private String check(Item item) {
    MapValue m = item.content();
    ParseableType type = item.parser().type("");
    switch (item.operation()) {
      case "merge":
        onlyKeys(m, Set.of("name", "lhs", "rhs", "result", "error"), "merge item");
        return merge(type, m);
      case "toFieldSet":
        onlyKeys(m, Set.of("name", "object", "fields"), "toFieldSet item");
        return sameSet("fields",
            type.fromValue(FixtureYaml.read(text(m, "object")), Duplicates.ALLOW).toFieldSet(), set(m, "fields"));
      case "compare":
        onlyKeys(m, Set.of("name", "lhs", "rhs", "added", "modified", "removed"), "compare item");
        return compare(type, m);
      case "removeAndExtract":
        onlyKeys(m, Set.of("name", "object", "set", "removeResult", "extractResult",
            "goTestComparedRemove", "goTestComparedExtract"), "removeAndExtract item");
        return removeAndExtract(type, m);
      case "reversibleExtract":
        onlyKeys(m, Set.of("name", "object", "pso", "merged", "psoLeaves", "extracted"),
            "reversibleExtract item");
        return reversibleExtract(type, m);
      case "extractWithKeys":
        onlyKeys(m, Set.of("name", "object", "set", "result"), "extractWithKeys item");
        TypedValue obj = type.fromValue(FixtureYaml.read(text(m, "object")));
        return sameValue("result", obj.extractItems(set(m, "set"), KeyFields.INCLUDE).value(),
            yaml(m, "result"));
      case "validate":
        onlyKeys(m, Set.of("name", "object", "valid", "validAllowingDuplicates", "error"),
            "validate item");
        return validate(type, m);
      case "reconcileFieldSetWithSchema":
        onlyKeys(m, Set.of("name", "object", "fields", "result"), "reconcileFieldSetWithSchema item");
        return reconcile(type, m);
      default:
        throw new FixtureFormatException("unknown operation '" + item.operation() + "'");
    }
  }

  private String merge(ParseableType type, MapValue m) {
    boolean expectError = m.containsKey("error");
    if (expectError == m.containsKey("result")) {
      throw new FixtureFormatException("a merge item needs exactly one of result and error");
    }
    Value result;
    try {
      TypedValue lhs = type.fromValue(FixtureYaml.read(text(m, "lhs")), Duplicates.ALLOW);
      TypedValue rhs = type.fromValue(FixtureYaml.read(text(m, "rhs")));
      result = lhs.merge(rhs).value();
    } catch (ValidationException e) {
      return expectError ? null : "merge failed: " + e.getMessage();
    }
    if (expectError) {
      return "merge succeeded with " + result + " but the reference fails it";
    }
    return sameValue("result", result, yaml(m, "result"));
  }

  private String compare(ParseableType type, MapValue m) {
    TypedValue lhs = type.fromValue(FixtureYaml.read(text(m, "lhs")), Duplicates.ALLOW);
    TypedValue rhs = type.fromValue(FixtureYaml.read(text(m, "rhs")), Duplicates.ALLOW);
    FieldSet added = set(m, "added");
    FieldSet modified = set(m, "modified");
    FieldSet removed = set(m, "removed");
    Comparison c = lhs.compare(rhs);
    String f = firstFailure(
        sameSet("added", c.added(), added),
        sameSet("modified", c.modified(), modified),
        sameSet("removed", c.removed(), removed));
    if (f != null) {
      return f;
    }
    Comparison swapped = rhs.compare(lhs);
    f = firstFailure(
        sameSet("added (swapped)", swapped.added(), removed),
        sameSet("modified (swapped)", swapped.modified(), modified),
        sameSet("removed (swapped)", swapped.removed(), added));
    return f;
  }

  private String removeAndExtract(ParseableType type, MapValue m) {
    if (m.containsKey("goTestComparedRemove")) {
      bool(m, "goTestComparedRemove");
    }
    if (m.containsKey("goTestComparedExtract")) {
      bool(m, "goTestComparedExtract");
    }
    TypedValue obj = type.fromValue(FixtureYaml.read(text(m, "object")));
    FieldSet set = set(m, "set");
    return firstFailure(
        sameValue("removeResult", obj.removeItems(set).value(), yaml(m, "removeResult")),
        sameValue("extractResult", obj.extractItems(set).value(), yaml(m, "extractResult")));
  }

  private String reversibleExtract(ParseableType type, MapValue m) {
    TypedValue obj = type.fromValue(FixtureYaml.read(text(m, "object")));
    TypedValue pso = type.fromValue(FixtureYaml.read(text(m, "pso")));
    TypedValue merged = obj.merge(pso);
    FieldSet leaves = pso.toFieldSet().leaves();
    return firstFailure(
        sameValue("merged", merged.value(), yaml(m, "merged")),
        sameSet("psoLeaves", leaves, set(m, "psoLeaves")),
        sameValue("extracted", merged.extractItems(leaves).value(), yaml(m, "extracted")));
  }

  private String validate(ParseableType type, MapValue m) {
    if (m.containsKey("error")) {
      string(m, "error");
    }
    Value v = FixtureYaml.read(text(m, "object"));
    boolean valid = type.fromValueUnvalidated(v).validate(Duplicates.REJECT).isEmpty();
    boolean validDup = type.fromValueUnvalidated(v).validate(Duplicates.ALLOW).isEmpty();
    if (valid != bool(m, "valid")) {
      return "strict validation " + (valid ? "passed" : "failed: "
          + type.fromValueUnvalidated(v).validate(Duplicates.REJECT)) + ", reference says valid=" + !valid;
    }
    if (validDup != bool(m, "validAllowingDuplicates")) {
      return "validation allowing duplicates " + (validDup ? "passed" : "failed: "
          + type.fromValueUnvalidated(v).validate(Duplicates.ALLOW)) + ", reference says valid=" + !validDup;
    }
    if (!valid && m.containsKey("error")) {
      List<String> got = new ArrayList<>();
      type.fromValueUnvalidated(v).validate(Duplicates.REJECT).forEach(e -> got.add(e.toString()));
      return sameErrors(string(m, "error"), got);
    }
    return null;
  }

  private String reconcile(ParseableType type, MapValue m) {
    TypedValue obj = type.fromValue(FixtureYaml.read(text(m, "object")));
    Optional<FieldSet> got = obj.reconcileFieldSetWithSchema(set(m, "fields"));
    Value want = required(m, "result");
    if (want.isNull()) {
      return got.map(s -> "expected no change, got " + FieldsV1.encode(s)).orElse(null);
    }
    if (got.isEmpty()) {
      return "expected a reconciled set, got no change";
    }
    return sameSet("result", got.get(), FieldsV1.decode(text(m, "result")));
  }

  private static String firstFailure(String... failures) {
    for (String f : failures) {
      if (f != null) {
        return f;
      }
    }
    return null;
  }

  private static String sameSet(String what, FieldSet got, FieldSet want) {
    return got.equals(want) ? null
        : what + " differs:\nexpected: " + FieldsV1.encode(want) + "\n     got: " + FieldsV1.encode(got);
  }

  /**
   * Compares validation errors with the reference's text: one error, or {@code errors:} and one
   * indented error a line. The texts must be equal up to {@code ", got "}, after which Go
   * prints the offending value with {@code %v} of its internal types (such as
   * {@code &value.valueUnstructured{Value:1}}), which no other implementation reproduces. The
   * order is free (the reference's is not fixed), and where the reference names one of several
   * undeclared fields it names whichever Go's map order gave it, so any undeclared field of ours
   * matches.
   */
  static String sameErrors(String want, List<String> got) {
    List<String> expected = new ArrayList<>();
    if (want.startsWith("errors:\n")) {
      for (String line : want.substring("errors:\n".length()).split("\n")) {
        expected.add(line.strip());
      }
    } else {
      expected.add(want);
    }
    List<String> left = new ArrayList<>();
    got.forEach(g -> left.add(withoutGoValue(g)));
    for (String e : expected) {
      String w = withoutGoValue(e);
      if (left.remove(w)) {
        continue;
      }
      int undeclared = -1;
      for (int i = 0; i < left.size() && w.endsWith(UNDECLARED) && undeclared < 0; i++) {
        undeclared = left.get(i).endsWith(UNDECLARED) ? i : -1;
      }
      if (undeclared < 0) {
        return "validation errors " + got + " lack the reference's " + Json.quote(e);
      }
      left.remove(undeclared);
    }
    return left.isEmpty() ? null : "validation errors " + left + " are not the reference's "
        + Json.quote(want);
  }

  private static final String UNDECLARED = ": field not declared in schema";

  private static String withoutGoValue(String error) {
    int got = error.indexOf(", got ");
    return got < 0 ? error : error.substring(0, got);
  }

  private static String sameValue(String what, Value got, Value want) {
    return got.equals(want) ? null : what + " differs:\nexpected: " + want + "\n     got: " + got;
  }

  private static String text(MapValue m, String key) {
    return string(m, key);
  }

  private static Value yaml(MapValue m, String key) {
    return FixtureYaml.read(string(m, key));
  }

  private static FieldSet set(MapValue m, String key) {
    return FieldsV1.decode(string(m, key));
  }
}
