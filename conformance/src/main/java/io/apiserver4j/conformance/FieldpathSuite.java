/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import static io.apiserver4j.conformance.FixtureFields.bool;
import static io.apiserver4j.conformance.FixtureFields.integer;
import static io.apiserver4j.conformance.FixtureFields.list;
import static io.apiserver4j.conformance.FixtureFields.map;
import static io.apiserver4j.conformance.FixtureFields.onlyKeys;
import static io.apiserver4j.conformance.FixtureFields.string;

import io.apiserver4j.conformance.FixtureFields.FixtureFormatException;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldsV1;
import io.apiserver4j.fieldpath.FieldsV1Exception;
import io.apiserver4j.fieldpath.KeyField;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.fieldpath.PathElements;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code fieldpath/} fixtures (README section 4): FieldsV1 parsing and canonical
 * serialization, path-element (de)serialization, and path strings. A file belongs to this suite
 * when it has a {@code calls} list.
 */
public final class FieldpathSuite implements FixtureSuite {
  private static final Set<String> FILE_KEYS = Set.of("testFunction", "sourceFile", "calls");
  private static final Set<String> SET_FROM_JSON = Set.of("call", "input", "ok", "toJSON", "error");
  private static final Set<String> DESERIALIZE =
      Set.of("call", "input", "ok", "element", "reserialized", "error");
  private static final Set<String> SERIALIZE = Set.of("call", "element", "ok", "output", "error");
  private static final Set<String> PATH_STRING =
      Set.of("call", "elements", "serializedElements", "string");

  @Override
  public String name() {
    return "fieldpath";
  }

  @Override
  public boolean accepts(Fixture fixture) {
    return fixture.content().containsKey("calls");
  }

  @Override
  public List<CaseOutcome> run(Fixture fixture) {
    MapValue doc = fixture.content();
    List<CaseOutcome> out = new ArrayList<>();
    ListValue calls;
    try {
      onlyKeys(doc, FILE_KEYS, "the fixture file");
      calls = list(doc, "calls");
    } catch (FixtureFormatException e) {
      return List.of(CaseOutcome.failed(fixture.name(), ConformanceRunner.WHOLE_FILE,
          e.getMessage()));
    }
    for (int i = 0; i < calls.size(); i++) {
      out.add(runCall(fixture.name(), i, calls.get(i)));
    }
    return out;
  }

  /** Checks one call; public so tests can run a single call. */
  public CaseOutcome runCall(String file, int index, Value callValue) {
    String caseName = "calls[" + index + "]";
    try {
      MapValue call = map(callValue, caseName);
      String kind = string(call, "call");
      caseName = caseName + " " + kind;
      String failure = switch (kind) {
        case "setFromJSON" -> setFromJson(call);
        case "deserializePathElement" -> deserializePathElement(call);
        case "serializePathElement" -> serializePathElement(call);
        case "pathString" -> pathString(call);
        default -> "unknown call '" + kind + "'";
      };
      return failure == null ? CaseOutcome.passed(file, caseName)
          : CaseOutcome.failed(file, caseName, failure);
    } catch (FixtureFormatException e) {
      return CaseOutcome.failed(file, caseName, "malformed fixture: " + e.getMessage());
    } catch (RuntimeException e) {
      return CaseOutcome.failed(file, caseName, "unexpected exception: " + e);
    }
  }

  private static String setFromJson(MapValue call) {
    onlyKeys(call, SET_FROM_JSON, "a setFromJSON call");
    String input = string(call, "input");
    boolean ok = bool(call, "ok");
    if (!ok) {
      if (call.containsKey("toJSON")) {
        throw new FixtureFormatException("toJSON given for a call that must fail");
      }
      try {
        FieldSet s = FieldsV1.decode(input);
        return "expected a parse error for " + Json.quote(input) + " but got the set "
            + FieldsV1.encode(s);
      } catch (FieldsV1Exception expected) {
        return null;
      }
    }
    String expected = string(call, "toJSON");
    FieldSet parsed;
    try {
      parsed = FieldsV1.decode(input);
    } catch (FieldsV1Exception e) {
      return "parse of " + Json.quote(input) + " failed: " + e.getMessage();
    }
    String actual = FieldsV1.encode(parsed);
    if (!actual.equals(expected)) {
      return "serialization differs:\n  expected " + expected + "\n  actual   " + actual;
    }
    // The canonical form must also parse back to the same set.
    FieldSet again = FieldsV1.decode(expected);
    if (!again.equals(parsed)) {
      return "toJSON does not parse back to the same set";
    }
    return null;
  }

  private static String deserializePathElement(MapValue call) {
    onlyKeys(call, DESERIALIZE, "a deserializePathElement call");
    String input = string(call, "input");
    boolean ok = bool(call, "ok");
    if (!ok) {
      if (call.containsKey("element") || call.containsKey("reserialized")) {
        throw new FixtureFormatException("element/reserialized given for a call that must fail");
      }
      try {
        PathElement e = PathElements.parse(input);
        return "expected an error for " + Json.quote(input) + " but parsed " + e;
      } catch (FieldsV1Exception expected) {
        return null;
      }
    }
    PathElement expected = element(map(FixtureFields.required(call, "element"), "element"));
    String reserialized = string(call, "reserialized");
    PathElement actual;
    try {
      actual = PathElements.parse(input);
    } catch (FieldsV1Exception e) {
      return "parse of " + Json.quote(input) + " failed: " + e.getMessage();
    }
    if (!actual.equals(expected)) {
      return "parsed " + describe(actual) + ", expected " + describe(expected);
    }
    String s = PathElements.serialize(actual);
    if (!s.equals(reserialized)) {
      return "reserialized as " + Json.quote(s) + ", expected " + Json.quote(reserialized);
    }
    return null;
  }

  private static String serializePathElement(MapValue call) {
    onlyKeys(call, SERIALIZE, "a serializePathElement call");
    PathElement e = element(map(FixtureFields.required(call, "element"), "element"));
    boolean ok = bool(call, "ok");
    if (!ok) {
      return "every element description can be serialized, but this call expects an error";
    }
    String expected = string(call, "output");
    String actual = PathElements.serialize(e);
    if (!actual.equals(expected)) {
      return "serialized as " + Json.quote(actual) + ", expected " + Json.quote(expected);
    }
    if (!PathElements.parse(actual).equals(e)) {
      return "output does not parse back to the element";
    }
    return null;
  }

  private static String pathString(MapValue call) {
    onlyKeys(call, PATH_STRING, "a pathString call");
    ListValue descriptions = list(call, "elements");
    List<PathElement> elements = new ArrayList<>();
    for (int i = 0; i < descriptions.size(); i++) {
      elements.add(element(map(descriptions.get(i), "elements[" + i + "]")));
    }
    FieldPath path = FieldPath.of(elements);
    String expected = string(call, "string");
    String actual = path.toString();
    if (!actual.equals(expected)) {
      return "path string " + Json.quote(actual) + ", expected " + Json.quote(expected);
    }
    if (call.containsKey("serializedElements")) {
      ListValue serialized = list(call, "serializedElements");
      if (serialized.size() != elements.size()) {
        throw new FixtureFormatException("serializedElements and elements differ in length");
      }
      for (int i = 0; i < elements.size(); i++) {
        Value sv = serialized.get(i);
        if (!(sv instanceof io.apiserver4j.core.StringValue text)) {
          throw new FixtureFormatException("serializedElements[" + i + "] must be a string");
        }
        String mine = PathElements.serialize(elements.get(i));
        if (!mine.equals(text.value())) {
          return "element " + i + " serialized as " + Json.quote(mine) + ", expected "
              + Json.quote(text.value());
        }
        if (!PathElements.parse(text.value()).equals(elements.get(i))) {
          return "serializedElements[" + i + "] does not parse to elements[" + i + "]";
        }
      }
    }
    return null;
  }

  /** Builds an element from its fixture description (README section 4). */
  static PathElement element(MapValue d) {
    if (d.size() != 1) {
      throw new FixtureFormatException(
          "an element description has exactly one of fieldName/index/value/key, found "
              + d.asMap().keySet());
    }
    String kind = d.keyAt(0);
    switch (kind) {
      case "fieldName":
        return PathElement.field(string(d, "fieldName"));
      case "index":
        return PathElement.index(integer(d, "index"));
      case "value":
        return PathElement.value(json(string(d, "value"), "value"));
      case "key": {
        ListValue fields = list(d, "key");
        List<KeyField> out = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
          MapValue f = map(fields.get(i), "key[" + i + "]");
          onlyKeys(f, Set.of("name", "value"), "key[" + i + "]");
          out.add(new KeyField(string(f, "name"), json(string(f, "value"), "key[" + i + "].value")));
        }
        return PathElement.key(out);
      }
      default:
        throw new FixtureFormatException("unknown element kind '" + kind + "'");
    }
  }

  private static Value json(String text, String what) {
    try {
      return Json.read(text);
    } catch (DecodeException e) {
      throw new FixtureFormatException(what + " is not JSON: " + e.getMessage());
    }
  }

  private static String describe(PathElement e) {
    return e.kind() + " " + PathElements.serialize(e);
  }
}
