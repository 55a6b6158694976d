/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Test helpers: read shared documents and navigate SMD schemas held as values. */
final class SmdSchemas {
  private SmdSchemas() {}

  static Path shared(String relative) {
    String dir = System.getProperty("apiserver4j.shared");
    Path base = dir != null ? Path.of(dir) : Path.of("..", "shared");
    Path p = base.resolve(relative);
    assertThat(p).as("shared file (set -Dapiserver4j.shared)").isRegularFile();
    return p;
  }

  static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Value openApiDocument(String file) {
    return Json.read(read(shared("openapi/" + file)));
  }

  static List<MapValue> types(MapValue schema) {
    List<MapValue> out = new ArrayList<>();
    for (Value v : ((ListValue) schema.getOrNull("types")).items()) {
      out.add((MapValue) v);
    }
    return out;
  }

  static List<String> typeNames(MapValue schema) {
    List<String> names = new ArrayList<>();
    for (MapValue t : types(schema)) {
      names.add(((StringValue) t.getOrNull("name")).value());
    }
    return names;
  }

  static Optional<MapValue> findType(MapValue schema, String name) {
    for (MapValue t : types(schema)) {
      if (t.getOrNull("name").equals(Value.of(name))) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** The atom of the named type (the type definition without its name). */
  static MapValue type(MapValue schema, String name) {
    return findType(schema, name).map(t -> t.without("name"))
        .orElseThrow(() -> new AssertionError("no type " + name));
  }

  /** The struct field {@code name} ({name, type, default?}) of a map atom. */
  static MapValue field(MapValue atom, String name) {
    MapValue map = (MapValue) atom.getOrNull("map");
    assertThat(map).as("map atom").isNotNull();
    for (Value f : ((ListValue) map.get("fields").orElse(ListValue.empty())).items()) {
      if (((MapValue) f).getOrNull("name").equals(Value.of(name))) {
        return (MapValue) f;
      }
    }
    return fail("no field " + name + " in " + atom);
  }

  static MapValue fieldType(MapValue atom, String name) {
    return (MapValue) field(atom, name).getOrNull("type");
  }

  /** The atom a type reference stands for: the named type, or the inline atom. */
  static MapValue resolve(MapValue schema, MapValue typeRef) {
    Value named = typeRef.getOrNull("namedType");
    return named == null ? typeRef : type(schema, ((StringValue) named).value());
  }

  /**
   * The type reference reached from type {@code root} through struct fields; the segment
   * {@code []} steps into list elements.
   */
  static MapValue walk(MapValue schema, String root, String... path) {
    MapValue ref = SmdConverter.namedRef(root);
    for (String segment : path) {
      MapValue atom = resolve(schema, ref);
      if (segment.equals("[]")) {
        ref = (MapValue) ((MapValue) atom.getOrNull("list")).getOrNull("elementType");
      } else {
        ref = fieldType(atom, segment);
      }
    }
    return ref;
  }

  static MapValue list(MapValue schema, MapValue typeRef) {
    MapValue list = (MapValue) resolve(schema, typeRef).getOrNull("list");
    assertThat(list).as("list atom of %s", typeRef).isNotNull();
    return list;
  }

  static MapValue map(MapValue schema, MapValue typeRef) {
    MapValue map = (MapValue) resolve(schema, typeRef).getOrNull("map");
    assertThat(map).as("map atom of %s", typeRef).isNotNull();
    return map;
  }

  static Value strings(String... s) {
    List<Value> out = new ArrayList<>();
    for (String x : s) {
      out.add(Value.of(x));
    }
    return ListValue.of(out);
  }
}
