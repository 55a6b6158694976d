package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.Meta;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads apiserver4j's compact schema notation (see {@code builtin-types.schema}) into SMD's
 * schema format ({@code {types: [...]}}) for {@link io.apiserver4j.merge.Schema#fromSmdValue}.
 * Errors name the line.
 */
public final class SchemaDsl {
  private static final String UNTYPED_ATOMIC = "__untyped_atomic_";
  private static final String UNTYPED_DEDUCED = "__untyped_deduced_";

  private final Map<String, String> prefixes = new LinkedHashMap<>();
  private final LinkedHashMap<String, MapValue> types = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> patchTags = new LinkedHashMap<>();
  private final Map<String, Map<String, Value>> zeros = new LinkedHashMap<>();

  /**
   * A parsed schema: SMD's format, and the strategic merge patch tags of fields by type name
   * and field name (e.g. {@code merge/name}).
   */
  public record Parsed(MapValue smd, Map<String, Map<String, String>> patchTags,
      Map<String, Map<String, Value>> zeros) {}

  private SchemaDsl() {}

  /** Parses a resource of the classpath. */
  public static Parsed readResource(String name) {
    try (InputStream in = SchemaDsl.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return parseWithPatchTags(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Parses the notation.
   *
   * @throws IllegalArgumentException naming the line of a syntax error or a duplicate type
   */
  public static MapValue parse(String text) {
    return parseWithPatchTags(text).smd();
  }

  /** Parses the notation, keeping the strategic merge patch tags. */
  public static Parsed parseWithPatchTags(String text) {
    SchemaDsl dsl = new SchemaDsl();
    dsl.read(text);
    ListValue.Builder out = ListValue.builder(dsl.types.size() + 2);
    dsl.types.forEach((name, atom) -> out.add(atom.with("name", Value.of(name))));
    out.add(namedAtom(UNTYPED_ATOMIC, untypedAtomic()));
    out.add(namedAtom(UNTYPED_DEDUCED, untypedDeduced()));
    Map<String, Map<String, String>> tags = new LinkedHashMap<>();
    dsl.patchTags.forEach((k, v) -> tags.put(k, Map.copyOf(v)));
    Map<String, Map<String, Value>> zeros = new LinkedHashMap<>();
    dsl.zeros.forEach((k, v) -> zeros.put(k, java.util.Collections.unmodifiableMap(
        new LinkedHashMap<>(v))));
    return new Parsed(MapValue.ofEntries("types", out.build()), Map.copyOf(tags),
        Map.copyOf(zeros));
  }

  private static MapValue namedAtom(String name, MapValue atom) {
    MapValue.Builder b = MapValue.builder().put("name", Value.of(name));
    atom.forEach(b::put);
    return b.build();
  }

  private void read(String text) {
    String[] lines = text.split("\n", -1);
    String currentType = null;
    boolean atomicStruct = false;
    ListValue.Builder fields = null;
    MapValue elementType = null;
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String raw = lines[i];
      int hash = raw.indexOf('#');
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).stripTrailing();
      if (line.isBlank()) {
        continue;
      }
      boolean indented = Character.isWhitespace(line.charAt(0));
      String[] words = line.trim().split("\\s+");
      if (indented) {
        if (currentType == null) {
          throw error(lineNo, "a field outside of a type");
        }
        Value defaultValue = null;
        boolean more = true;
        while (more && words.length > 2) {
          String last = words[words.length - 1];
          if (last.startsWith("patch=")) {
            patchTags.computeIfAbsent(currentType, k -> new LinkedHashMap<>())
                .put(words[0], last.substring("patch=".length()));
          } else if (last.startsWith("zero=")) {
            try {
              zeros.computeIfAbsent(currentType, k -> new LinkedHashMap<>()).put(words[0],
                  io.apiserver4j.core.Json.read(last.substring("zero=".length())));
            } catch (RuntimeException e) {
              throw error(lineNo, "bad zero " + last);
            }
          } else if (last.startsWith("default=")) {
            try {
              defaultValue = io.apiserver4j.core.Json.read(last.substring("default=".length()));
            } catch (RuntimeException e) {
              throw error(lineNo, "bad default " + last);
            }
          } else {
            more = false;
            continue;
          }
          words = java.util.Arrays.copyOf(words, words.length - 1);
        }
        if (words.length < 2) {
          throw error(lineNo, "expected <field> <type>");
        }
        MapValue type = typeExpr(words, 1, lineNo);
        if (words[0].equals("*")) {
          elementType = type;
        } else {
          MapValue field = MapValue.ofEntries("name", Value.of(words[0]), "type", type);
          fields.add(defaultValue == null ? field : field.with("default", defaultValue));
        }
        continue;
      }
      if (currentType != null) {
        finishStruct(currentType, fields.build(), elementType, atomicStruct);
        currentType = null;
      }
      switch (words[0]) {
        case "prefix":
          if (words.length != 3) {
            throw error(lineNo, "expected: prefix <alias> <namespace>");
          }
          prefixes.put(words[1], words[2]);
          break;
        case "type":
          if (words.length < 2 || words.length > 3
              || (words.length == 3 && !words[2].equals("atomic"))) {
            throw error(lineNo, "expected: type <Name> [atomic]");
          }
          currentType = typeName(words[1]);
          if (types.containsKey(currentType)) {
            throw error(lineNo, "duplicate type " + currentType);
          }
          atomicStruct = words.length == 3;
          fields = ListValue.builder();
          elementType = null;
          break;
        case "alias":
          if (words.length < 4 || !words[2].equals("=")) {
            throw error(lineNo, "expected: alias <Name> = <type>");
          }
          String name = typeName(words[1]);
          if (types.containsKey(name)) {
            throw error(lineNo, "duplicate type " + name);
          }
          types.put(name, aliasAtom(typeExpr(words, 3, lineNo)));
          break;
        default:
          throw error(lineNo, "unknown statement " + words[0]);
      }
    }
    if (currentType != null) {
      finishStruct(currentType, fields.build(), elementType, atomicStruct);
    }
  }

  private void finishStruct(String name, ListValue fields, MapValue elementType, boolean atomic) {
    MapValue.Builder map = MapValue.builder().put("fields", fields);
    if (elementType != null) {
      map.put("elementType", elementType);
    }
    if (atomic) {
      map.put("elementRelationship", Value.of("atomic"));
    }
    types.put(name, MapValue.ofEntries("map", map.build()));
  }

  // An alias's atom: a TypeRef's inline atom, or the atom of the named type it refers to.
  private static MapValue aliasAtom(MapValue typeRef) {
    if (typeRef.containsKey("namedType")) {
      String target = ((io.apiserver4j.core.StringValue) typeRef.getOrNull("namedType")).value();
      if (target.equals(UNTYPED_DEDUCED)) {
        return untypedDeduced();
      }
      if (target.equals(UNTYPED_ATOMIC)) {
        return untypedAtomic();
      }
      throw new IllegalArgumentException("an alias must not name another type: " + target);
    }
    return typeRef;
  }

  private String typeName(String word) {
    int dot = word.indexOf('.');
    if (dot > 0) {
      String prefix = prefixes.get(word.substring(0, dot));
      if (prefix != null) {
        return prefix + word.substring(dot + 1);
      }
    }
    return word;
  }

  // words[from..] form one type expression: T, [T] [set|map(...)], {T} [atomic].
  private MapValue typeExpr(String[] words, int from, int lineNo) {
    String t = words[from];
    String modifier = words.length > from + 1 ? words[from + 1] : null;
    if (words.length > from + 2) {
      throw error(lineNo, "too many words in type expression");
    }
    if (t.startsWith("[") && t.endsWith("]")) {
      MapValue element = simpleType(t.substring(1, t.length() - 1), lineNo);
      MapValue.Builder list = MapValue.builder().put("elementType", element);
      if (modifier == null || modifier.equals("atomic")) {
        list.put("elementRelationship", Value.of("atomic"));
      } else if (modifier.equals("set")) {
        list.put("elementRelationship", Value.of("associative"));
      } else if (modifier.startsWith("map(") && modifier.endsWith(")")) {
        ListValue.Builder keys = ListValue.builder();
        for (String k : modifier.substring(4, modifier.length() - 1).split(",")) {
          if (k.isEmpty()) {
            throw error(lineNo, "empty list key");
          }
          keys.add(Value.of(k));
        }
        list.put("elementRelationship", Value.of("associative")).put("keys", keys.build());
      } else {
        throw error(lineNo, "unknown list modifier " + modifier);
      }
      return MapValue.ofEntries("list", list.build());
    }
    if (t.startsWith("{") && t.endsWith("}")) {
      MapValue element = simpleType(t.substring(1, t.length() - 1), lineNo);
      MapValue.Builder map = MapValue.builder().put("elementType", element);
      if (modifier != null) {
        if (!modifier.equals("atomic")) {
          throw error(lineNo, "unknown map modifier " + modifier);
        }
        map.put("elementRelationship", Value.of("atomic"));
      }
      return MapValue.ofEntries("map", map.build());
    }
    if (modifier != null) {
      throw error(lineNo, "modifier " + modifier + " after a non-collection type");
    }
    return simpleType(t, lineNo);
  }

  private MapValue simpleType(String t, int lineNo) {
    switch (t) {
      case "string":
      case "boolean":
      case "untyped":
        return MapValue.ofEntries("scalar", Value.of(t));
      case "number":
        return MapValue.ofEntries("scalar", Value.of("numeric"));
      case "untyped*":
        return MapValue.ofEntries("namedType", Value.of(UNTYPED_DEDUCED));
      case "any":
        return MapValue.ofEntries("namedType", Value.of(UNTYPED_DEDUCED));
      case "raw":
        return MapValue.ofEntries("namedType", Value.of(UNTYPED_ATOMIC));
      default:
        if (t.isEmpty() || t.contains("[") || t.contains("{")) {
          throw error(lineNo, "bad type " + t);
        }
        return MapValue.ofEntries("namedType", Value.of(typeName(t)));
    }
  }

  private static MapValue untypedAtomic() {
    MapValue elements = MapValue.ofEntries("namedType", Value.of(UNTYPED_ATOMIC));
    return MapValue.ofEntries(
        "scalar", Value.of("untyped"),
        "list", MapValue.ofEntries("elementType", elements, "elementRelationship",
            Value.of("atomic")),
        "map", MapValue.ofEntries("elementType", elements, "elementRelationship",
            Value.of("atomic")));
  }

  private static MapValue untypedDeduced() {
    return MapValue.ofEntries(
        "scalar", Value.of("untyped"),
        "list", MapValue.ofEntries("elementType", MapValue.ofEntries("namedType",
            Value.of(UNTYPED_ATOMIC)), "elementRelationship", Value.of("atomic")),
        "map", MapValue.ofEntries("elementType", MapValue.ofEntries("namedType",
            Value.of(UNTYPED_DEDUCED)), "elementRelationship", Value.of("separable")));
  }

  private static IllegalArgumentException error(int line, String message) {
    return new IllegalArgumentException("schema line " + line + ": " + message);
  }

  /** The names of the struct types declared, for coverage reports. */
  static List<String> names(MapValue schema) {
    List<String> out = new ArrayList<>();
    for (Value t : ((ListValue) schema.getOrNull("types")).items()) {
      out.add(Meta.string((MapValue) t, "name"));
    }
    return out;
  }
}
