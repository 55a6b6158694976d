/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance.smd;

import io.apiserver4j.conformance.FixtureFields.FixtureFormatException;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.ConversionException;
import io.apiserver4j.merge.MissingVersionException;
import io.apiserver4j.merge.TypedValue;
import io.apiserver4j.merge.ValidationException;
import io.apiserver4j.merge.VersionConverter;
import java.util.Arrays;

/**
 * The four converters the merge fixtures name (README section 2.3), re-implemented from their
 * definitions there.
 */
public final class FixtureConverters {
  private FixtureConverters() {}

  /** The converter called {@code name}, typing its results with {@code parser}. */
  public static VersionConverter named(String name, FixtureParser parser) {
    switch (name) {
      case "identity":
        return VersionConverter.identity();
      case "renameVersionSuffix":
        return (object, version) -> renameVersionSuffix(parser, object, version);
      case "repeatLetters":
        return (object, version) -> repeatLetters(parser, object, version);
      case "reliantFields":
        return (object, version) -> reliantFields(parser, object, version);
      default:
        throw new FixtureFormatException("unknown converter '" + name + "'");
    }
  }

  private static String typeName(TypedValue v) {
    return v.typeRef().namedType().orElseThrow(
        () -> new ConversionException("object has an inline type; cannot tell its version"));
  }

  private static TypedValue typed(FixtureParser parser, String version, Value v) {
    try {
      return parser.type(version).fromValue(v);
    } catch (ValidationException e) {
      throw new ConversionException("converted object is invalid: " + e.getMessage(), e);
    }
  }

  // ------------------------------------------------------------------ renameVersionSuffix

  private static TypedValue renameVersionSuffix(FixtureParser parser, TypedValue object, String version) {
    String from = typeName(object);
    return typed(parser, version, rename(object.value(), from, version));
  }

  private static Value rename(Value v, String oldSuffix, String newSuffix) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder(m.size());
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        String nk = k.endsWith(oldSuffix) ? k.substring(0, k.length() - oldSuffix.length()) + newSuffix : k;
        b.put(nk, rename(m.valueAt(i), oldSuffix, newSuffix));
      }
      return b.build();
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      for (Value item : l.items()) {
        b.add(rename(item, oldSuffix, newSuffix));
      }
      return b.build();
    }
    return v;
  }

  // ------------------------------------------------------------------ repeatLetters

  private static TypedValue repeatLetters(FixtureParser parser, TypedValue object, String version) {
    int n = versionNumber(version);
    Value v = object.value();
    Value out;
    if (v instanceof MapValue m && !m.isEmpty()) {
      String[] keys = sortedKeys(m);
      String first = keys[0];
      Value fv = m.getOrNull(first);
      out = MapValue.builder(1).put(first,
          fv instanceof MapValue fm && !fm.isEmpty() ? repeat(fm, n) : fv).build();
    } else {
      out = v;
    }
    return typed(parser, version, out);
  }

  private static int versionNumber(String version) {
    if (version.length() < 2 || version.charAt(0) != 'v') {
      throw new MissingVersionException("cannot convert to invalid version: " + version);
    }
    try {
      int n = Integer.parseInt(version.substring(1));
      if (n <= 0 || !version.substring(1).equals(Integer.toString(n))) {
        throw new MissingVersionException("cannot convert to invalid version: " + version);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new MissingVersionException("cannot convert to invalid version: " + version);
    }
  }

  /** Keys rewritten as their first character repeated n times; later keys win collisions. */
  private static Value repeat(MapValue m, int n) {
    MapValue.Builder b = MapValue.builder(m.size());
    for (String k : sortedKeys(m)) {
      Value v = m.getOrNull(k);
      String nk = k.isEmpty() ? k : String.valueOf(Character.toChars(k.codePointAt(0))).repeat(n);
      b.remove(nk);
      b.put(nk, v instanceof MapValue vm && !vm.isEmpty() ? repeat(vm, n) : Value.nullValue());
    }
    return b.build();
  }

  private static String[] sortedKeys(MapValue m) {
    String[] keys = new String[m.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = m.keyAt(i);
    }
    Arrays.sort(keys, Values::compareStrings);
    return keys;
  }

  // ------------------------------------------------------------------ reliantFields

  private static TypedValue reliantFields(FixtureParser parser, TypedValue object, String version) {
    String from = typeName(object);
    if (from.equals(version)) {
      return object;
    }
    String text = Yaml.write(object.value());
    String out;
    switch (version) {
      case "v1":
        if (!text.contains("required_field_bar")) {
          throw new ConversionException("missing required field bar");
        }
        out = text.replace("required_field_bar", "field_foo_rely_on_bar");
        break;
      case "v2":
        out = text.replace("field_foo_rely_on_bar", "required_field_bar");
        break;
      default:
        throw new MissingVersionException("cannot convert to invalid version: " + version);
    }
    return typed(parser, version, Yaml.read(out));
  }
}
