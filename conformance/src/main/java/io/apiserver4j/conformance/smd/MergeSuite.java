/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import static io.apiserver4j.conformance.FixtureFields.bool;
import static io.apiserver4j.conformance.FixtureFields.integer;
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
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldsV1;
import io.apiserver4j.merge.Conflict;
import io.apiserver4j.merge.ConflictsException;
import io.apiserver4j.merge.Duplicates;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ManagedFieldsMap;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.UpdateResult;
import io.apiserver4j.merge.Updater;
import io.apiserver4j.merge.VersionConverter;
import io.apiserver4j.merge.VersionedSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code merge/} fixtures (README section 2): sequences of apply, update, extract-apply and
 * schema-change operations on one object, checked against the final object and managed fields
 * and against the conflicts every apply reports. A file belongs to this suite when it has
 * {@code cases} and no {@code operation}.
 */
public final class MergeSuite implements FixtureSuite {
  private static final Set<String> FILE_KEYS = Set.of("testFunction", "sourceFile", "cases");
  private static final Set<String> CASE_KEYS = Set.of("name", "parser", "converter", "ops",
      "expected", "goTestAssertions", "returnInputOnNoop", "ignoredFields", "ignoreFilterExclude");
  private static final Set<String> WRITE_OP_KEYS = Set.of("op", "manager", "apiVersion", "object");
  private static final Set<String> APPLY_OP_KEYS =
      Set.of("op", "manager", "apiVersion", "object", "conflicts");
  private static final Set<String> SCHEMA_OP_KEYS = Set.of("op", "schema");
  private static final Set<String> EXPECTED_STATE = Set.of("apiVersion", "object", "managedFields");
  private static final Set<String> EXPECTED_ERROR = Set.of("error");
  private static final Set<String> ERROR_KEYS = Set.of("op", "message");
  private static final Set<String> MANAGER_KEYS = Set.of("manager", "apiVersion", "applied", "fields");
  private static final Set<String> CONFLICT_KEYS = Set.of("manager", "path");
  private static final Set<String> ASSERTION_KEYS = Set.of("object", "managedFields");

  @Override
  public String name() {
    return "merge";
  }

  @Override
  public boolean accepts(Fixture fixture) {
    MapValue c = fixture.content();
    return c.containsKey("cases") && !c.containsKey("operation");
  }

  /** The cases of a fixture file (validating the file-level keys). */
  public ListValue cases(Fixture fixture) {
    onlyKeys(fixture.content(), FILE_KEYS, "the fixture file");
    return list(fixture.content(), "cases");
  }

  @Override
  public List<CaseOutcome> run(Fixture fixture) {
    ListValue cases;
    try {
      cases = cases(fixture);
    } catch (FixtureFormatException e) {
      return List.of(CaseOutcome.failed(fixture.name(), ConformanceRunner.WHOLE_FILE, e.getMessage()));
    }
    List<CaseOutcome> out = new ArrayList<>(cases.size());
    for (int i = 0; i < cases.size(); i++) {
      out.add(runCase(fixture.name(), i, cases.get(i)));
    }
    return out;
  }

  /** The display name of case {@code index}. */
  public static String caseName(int index, Value c) {
    if (c instanceof MapValue m && m.getOrNull("name") instanceof io.apiserver4j.core.StringValue s) {
      return s.value();
    }
    return "cases[" + index + "]";
  }

  /** Checks one case. */
  public CaseOutcome runCase(String file, int index, Value caseValue) {
    String name = caseName(index, caseValue);
    try {
      String failure = check(map(caseValue, name));
      return failure == null ? CaseOutcome.passed(file, name) : CaseOutcome.failed(file, name, failure);
    } catch (FixtureFormatException e) {
      return CaseOutcome.failed(file, name, "bad fixture: " + e.getMessage());
    } catch (RuntimeException e) {
      return CaseOutcome.failed(file, name, "unexpected exception: " + e);
    }
  }

  /** Mutable state of one case. */
  private static final class State {
    FixtureParser parser;
    TypedValue live;
    ManagedFieldsMap managers = ManagedFieldsMap.empty();
  }

  /** An operation failed with a non-conflict error. */
  private static final class OpFailed extends RuntimeException {
    OpFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** An apply reported other conflicts than expected (a test failure, not an op failure). */
  private static final class ConflictMismatch extends RuntimeException {
    ConflictMismatch(String message) {
      super(message);
    }
  }

  private String check(MapValue c) {
    onlyKeys(c, CASE_KEYS, "case");
    string(c, "name");
    State state = new State();
    state.parser = FixtureParser.from(map(required(c, "parser"), "parser"));
    VersionConverter converter = FixtureConverters.named(string(c, "converter"), state.parser);
    Updater.Builder ub = Updater.builder().converter(converter);
    if (c.containsKey("returnInputOnNoop") && bool(c, "returnInputOnNoop")) {
      ub.skipNoopComparison();
    }
    if (c.containsKey("ignoredFields") && c.containsKey("ignoreFilterExclude")) {
      throw new FixtureFormatException("ignoredFields and ignoreFilterExclude may not both be set");
    }
    for (String key : List.of("ignoredFields", "ignoreFilterExclude")) {
      if (c.containsKey(key)) {
        MapValue perVersion = map(required(c, key), key);
        for (int i = 0; i < perVersion.size(); i++) {
          ub.ignoredFields(perVersion.keyAt(i), FieldsV1.decode(
              stringValue(perVersion.valueAt(i), key + "." + perVersion.keyAt(i))));
        }
      }
    }
    Updater updater = ub.build();
    if (c.containsKey("goTestAssertions")) {
      MapValue a = map(required(c, "goTestAssertions"), "goTestAssertions");
      onlyKeys(a, ASSERTION_KEYS, "goTestAssertions");
    }

    MapValue expected = map(required(c, "expected"), "expected");
    long errorOp = -1;
    String errorMessage = "";
    if (expected.containsKey("error")) {
      onlyKeys(expected, EXPECTED_ERROR, "expected");
      MapValue err = map(required(expected, "error"), "expected.error");
      onlyKeys(err, ERROR_KEYS, "expected.error");
      errorOp = integer(err, "op");
      errorMessage = string(err, "message");
    } else {
      onlyKeys(expected, EXPECTED_STATE, "expected");
    }

    ListValue ops = list(c, "ops");
    if (errorOp >= ops.size()) {
      throw new FixtureFormatException("expected.error.op " + errorOp + " is beyond the last op");
    }
    for (int i = 0; i < ops.size(); i++) {
      MapValue op = map(ops.get(i), "ops[" + i + "]");
      try {
        runOp(state, updater, converter, op);
      } catch (ConflictMismatch e) {
        return "ops[" + i + "]: " + e.getMessage();
      } catch (OpFailed e) {
        if (i == errorOp) {
          // the reference's error, not just any failure: its text is the updater's message
          String got = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
          return errorMessage.equals(got) ? null : "ops[" + i + "] (" + string(op, "op")
              + ") failed with " + Json.quote(String.valueOf(got)) + " but the reference fails"
              + " it with " + Json.quote(errorMessage);
        }
        return "ops[" + i + "] (" + string(op, "op") + ") failed: " + e.getMessage();
      }
      if (i == errorOp) {
        return "ops[" + i + "] (" + string(op, "op") + ") succeeded but the reference fails it";
      }
    }
    return checkState(state, converter, expected);
  }

  private void runOp(State state, Updater updater, VersionConverter converter, MapValue op) {
    String kind = string(op, "op");
    switch (kind) {
      case "apply":
        onlyKeys(op, APPLY_OP_KEYS, "apply op");
        apply(state, updater, converter, op, Force.NO);
        break;
      case "forceApply":
        onlyKeys(op, WRITE_OP_KEYS, "forceApply op");
        apply(state, updater, converter, op, Force.YES);
        break;
      case "update":
        onlyKeys(op, WRITE_OP_KEYS, "update op");
        update(state, updater, converter, op);
        break;
      case "extractApply":
        onlyKeys(op, WRITE_OP_KEYS, "extractApply op");
        extractApply(state, updater, converter, op);
        break;
      case "changeSchema":
        onlyKeys(op, SCHEMA_OP_KEYS, "changeSchema op");
        changeSchema(state, op);
        break;
      default:
        throw new FixtureFormatException("unknown op '" + kind + "'");
    }
  }

  private static TypedValue parse(State state, String version, String yaml, Duplicates duplicates) {
    try {
      return state.parser.type(version).fromValue(FixtureYaml.read(yaml), duplicates);
    } catch (RuntimeException e) {
      throw new OpFailed("invalid object: " + e.getMessage(), e);
    }
  }

  /** Creates the live object if missing and converts it to {@code version} (kept in the state). */
  private static void prepareLive(State state, VersionConverter converter, String version) {
    try {
      if (state.live == null) {
        state.live = state.parser.type(version).nullValue();
      }
      state.live = converter.convert(state.live, version);
    } catch (RuntimeException e) {
      throw new OpFailed("cannot convert the live object to " + version + ": " + e.getMessage(), e);
    }
  }

  private void apply(State state, Updater updater, VersionConverter converter, MapValue op, Force force) {
    String version = string(op, "apiVersion");
    TypedValue config = parse(state, version, string(op, "object"), Duplicates.REJECT);
    Set<String> expected = null;
    if (op.containsKey("conflicts")) {
      expected = conflicts(list(op, "conflicts"));
    }
    applyObject(state, updater, converter, string(op, "manager"), version, config, force, expected);
  }

  private static void applyObject(State state, Updater updater, VersionConverter converter,
      String manager, String version, TypedValue config, Force force, Set<String> expected) {
    prepareLive(state, converter, version);
    List<Conflict> got = List.of();
    try {
      UpdateResult r = updater.apply(state.live, config, version, state.managers, manager, force);
      state.live = r.object();
      state.managers = r.managers();
    } catch (ConflictsException e) {
      if (expected == null) {
        throw new OpFailed(e.getMessage(), e);
      }
      got = e.conflicts();
    } catch (RuntimeException e) {
      throw new OpFailed(e.toString(), e);
    }
    if (expected != null && !expected.equals(conflictSet(got))) {
      throw new ConflictMismatch("expected conflicts " + expected + " but got " + conflictSet(got));
    }
  }

  private static Set<String> conflictSet(List<Conflict> conflicts) {
    Set<String> s = new HashSet<>();
    for (Conflict c : conflicts) {
      s.add(c.manager() + " " + c.path());
    }
    return s;
  }

  /** Expected conflicts as {@code manager path} strings (paths are compared as strings). */
  private static Set<String> conflicts(ListValue l) {
    Set<String> out = new HashSet<>();
    for (int i = 0; i < l.size(); i++) {
      MapValue m = map(l.get(i), "conflicts[" + i + "]");
      onlyKeys(m, CONFLICT_KEYS, "conflicts[" + i + "]");
      out.add(string(m, "manager") + " " + string(m, "path"));
    }
    return out;
  }


  private void update(State state, Updater updater, VersionConverter converter, MapValue op) {
    String version = string(op, "apiVersion");
    TypedValue obj = parse(state, version, string(op, "object"), Duplicates.ALLOW);
    prepareLive(state, converter, version);
    try {
      UpdateResult r = updater.update(state.live, obj, version, state.managers, string(op, "manager"));
      state.live = r.object();
      state.managers = r.managers();
    } catch (RuntimeException e) {
      throw new OpFailed(e.toString(), e);
    }
  }

  private void extractApply(State state, Updater updater, VersionConverter converter, MapValue op) {
    String version = string(op, "apiVersion");
    String manager = string(op, "manager");
    TypedValue config = parse(state, version, string(op, "object"), Duplicates.REJECT);
    if (state.live == null) {
      applyObject(state, updater, converter, manager, version, config, Force.YES, null);
      return;
    }
    TypedValue merged;
    try {
      TypedValue current = converter.convert(state.live, version);
      FieldSet set = FieldSet.empty();
      VersionedSet mine = state.managers.get(manager).orElse(null);
      if (mine != null) {
        if (!mine.apiVersion().equals(version)) {
          throw new IllegalStateException("existing managed fieldpath set APIVersion ("
              + mine.apiVersion() + ") differs from desired (" + version + "), unable to extract");
        }
        set = mine.set().leaves();
      }
      merged = current.extractItems(set).merge(config);
    } catch (RuntimeException e) {
      throw new OpFailed(e.toString(), e);
    }
    applyObject(state, updater, converter, manager, version, merged, Force.YES, null);
  }

  private void changeSchema(State state, MapValue op) {
    Schema schema;
    try {
      schema = Schema.fromSmdYaml(string(op, "schema"));
      state.parser = FixtureParser.perVersion(schema);
      if (state.live != null) {
        state.live = schema.type(state.live.typeRef()).fromValue(state.live.value());
      }
    } catch (RuntimeException e) {
      throw new OpFailed(e.toString(), e);
    }
  }

  private String checkState(State state, VersionConverter converter, MapValue expected) {
    String version = string(expected, "apiVersion");
    Value want = FixtureYaml.read(stringValue(required(expected, "object"), "expected.object"));
    Value got;
    if (state.live == null) {
      got = Value.nullValue();
    } else {
      try {
        got = converter.convert(state.live, version).value();
      } catch (RuntimeException e) {
        return "cannot convert the final object to " + version + ": " + e;
      }
    }
    if (!want.equals(got)) {
      return "object differs:\nexpected: " + want + "\n     got: " + got;
    }
    Map<String, VersionedSet> wantManagers = new TreeMap<>();
    ListValue l = list(expected, "managedFields");
    for (int i = 0; i < l.size(); i++) {
      MapValue m = map(l.get(i), "managedFields[" + i + "]");
      onlyKeys(m, MANAGER_KEYS, "managedFields[" + i + "]");
      wantManagers.put(string(m, "manager"), new VersionedSet(FieldsV1.decode(string(m, "fields")),
          string(m, "apiVersion"), bool(m, "applied")));
    }
    Map<String, VersionedSet> gotManagers = new TreeMap<>(state.managers.asMap());
    for (Map.Entry<String, VersionedSet> e : gotManagers.entrySet()) {
      if (e.getValue().set().isEmpty()) {
        return "manager " + e.getKey() + " has an empty field set";
      }
    }
    if (!wantManagers.equals(gotManagers)) {
      return "managed fields differ:\nexpected: " + describe(wantManagers) + "\n     got: " + describe(gotManagers);
    }
    return null;
  }

  private static String describe(Map<String, VersionedSet> managers) {
    StringBuilder sb = new StringBuilder();
    managers.forEach((k, v) -> sb.append("\n  ").append(k).append(" ").append(v.apiVersion())
        .append(v.applied() ? " applied " : " updated ").append(FieldsV1.encode(v.set())));
    return sb.toString();
  }

  private static String stringValue(Value v, String what) {
    if (v instanceof io.apiserver4j.core.StringValue s) {
      return s.value();
    }
    throw new FixtureFormatException(what + " must be a string, found " + v.kind());
  }
}
