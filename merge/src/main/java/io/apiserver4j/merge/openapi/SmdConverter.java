/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Converts named OpenAPI v3 schemas into structured-merge-diff type definitions, making the
 * choices kube-openapi's {@code schemaconv.ToSchemaFromOpenAPI} makes (the conversion
 * kube-apiserver uses for its managed-fields type converter), and rejecting input that
 * conversion would only log or silently misread.
 *
 * <p>Output is deterministic: type definitions and struct fields are sorted by name in Go's byte
 * order, followed by SMD's two standard untyped definitions.
 */
final class SmdConverter {
  static final String UNTYPED_ATOMIC = "__untyped_atomic_";
  static final String UNTYPED_DEDUCED = "__untyped_deduced_";
  static final String REF_PREFIX = "#/components/schemas/";
  // kube-openapi hard-codes these two: their published schemas do not describe their wire form.
  static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
  static final String RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension";

  static final String PRESERVE_UNKNOWN_FIELDS = "x-kubernetes-preserve-unknown-fields";
  static final String EMBEDDED_RESOURCE = "x-kubernetes-embedded-resource";
  static final String INT_OR_STRING = "x-kubernetes-int-or-string";
  static final String LIST_TYPE = "x-kubernetes-list-type";
  static final String LIST_MAP_KEYS = "x-kubernetes-list-map-keys";
  static final String MAP_TYPE = "x-kubernetes-map-type";
  static final String PATCH_STRATEGY = "x-kubernetes-patch-strategy";
  static final String PATCH_MERGE_KEY = "x-kubernetes-patch-merge-key";

  private static final Value UNTYPED = Value.of("untyped");
  private static final Value ATOMIC = Value.of("atomic");
  private static final Value ASSOCIATIVE = Value.of("associative");
  private static final Value SEPARABLE = Value.of("separable");

  /** A schema to convert and where it came from, for error messages. */
  record Definition(Value schema, SchemaPath path) {}

  private final Map<String, Definition> definitions;

  SmdConverter(Map<String, Definition> definitions) {
    this.definitions = definitions;
  }

  /** SMD's {@code __untyped_atomic_}: any value, always replaced as a whole. */
  static MapValue untypedAtomicAtom() {
    MapValue elements = namedRef(UNTYPED_ATOMIC);
    return MapValue.builder()
        .put("scalar", UNTYPED)
        .put("list", MapValue.builder().put("elementType", elements)
            .put("elementRelationship", ATOMIC).build())
        .put("map", MapValue.builder().put("elementType", elements)
            .put("elementRelationship", ATOMIC).build())
        .build();
  }

  /** SMD's {@code __untyped_deduced_}: maps are merged field by field, everything else atomic. */
  static MapValue untypedDeducedAtom() {
    return MapValue.builder()
        .put("scalar", UNTYPED)
        .put("list", MapValue.builder().put("elementType", namedRef(UNTYPED_ATOMIC))
            .put("elementRelationship", ATOMIC).build())
        .put("map", MapValue.builder().put("elementType", namedRef(UNTYPED_DEDUCED))
            .put("elementRelationship", SEPARABLE).build())
        .build();
  }

  static MapValue namedRef(String name) {
    return MapValue.builder(1).put("namedType", Value.of(name)).build();
  }

  /** Converts every definition; returns the whole SMD schema ({@code {types: [...]}}). */
  MapValue convert() {
    List<String> names = new ArrayList<>(definitions.keySet());
    names.sort(Values::compareStrings);
    ListValue.Builder types = ListValue.builder(names.size() + 2);
    for (String name : names) {
      Definition def = definitions.get(name);
      if (name.equals(UNTYPED_ATOMIC) || name.equals(UNTYPED_DEDUCED)) {
        throw def.path().error("the name " + name + " is reserved for SMD's built-in untyped type");
      }
      MapValue atom;
      if (name.equals(QUANTITY)) {
        atom = MapValue.builder(1).put("scalar", UNTYPED).build();
      } else if (name.equals(RAW_EXTENSION)) {
        atom = untypedAtomicAtom();
      } else {
        MapValue node = asSchema(def.schema(), def.path());
        if (node.containsKey("$ref")) {
          // A definition that is only a reference to another one adds no type (as in schemaconv),
          // but the reference must still resolve.
          refOf(node, def.path());
          continue;
        }
        atom = atom(node, def.path(), false);
      }
      types.add(typeDef(name, atom));
    }
    types.add(typeDef(UNTYPED_ATOMIC, untypedAtomicAtom()));
    types.add(typeDef(UNTYPED_DEDUCED, untypedDeducedAtom()));
    return MapValue.builder(1).put("types", types.build()).build();
  }

  private static MapValue typeDef(String name, MapValue atom) {
    MapValue.Builder b = MapValue.builder(atom.size() + 1).put("name", Value.of(name));
    atom.forEach(b::put);
    return b.build();
  }

  /** The SMD atom of a schema node (schemaconv's visitSpec/parseSchema). */
  private MapValue atom(MapValue node, SchemaPath path, boolean preserveUnknownFields) {
    // The flag is inherited by everything inlined below this node, not by named types.
    boolean preserve = flag(node, PRESERVE_UNKNOWN_FIELDS, path) || preserveUnknownFields;
    String type = typeOf(node, path);
    if (flag(node, INT_OR_STRING, path) && !type.isEmpty()) {
      throw path.field("type").error("must be empty when " + INT_OR_STRING + " is true");
    }
    if (flag(node, EMBEDDED_RESOURCE, path) && !type.equals("object")) {
      throw path.field("type").error("must be object when " + EMBEDDED_RESOURCE + " is true");
    }
    MapValue.Builder b = MapValue.builder(3);
    switch (type) {
      case "" -> {
        // No type accepts anything: an untyped scalar, list or map.
        b.put("scalar", UNTYPED);
        b.put("list", list(node, path, preserve, type));
        b.put("map", object(node, path, preserve));
      }
      case "object" -> b.put("map", object(node, path, preserve));
      case "array" -> b.put("list", list(node, path, preserve, type));
      case "integer", "number" -> b.put("scalar", Value.of("numeric"));
      case "boolean" -> b.put("scalar", Value.of("boolean"));
      case "string" -> b.put("scalar", stringScalar(node, path));
      default -> throw path.field("type").error("unrecognized type \"" + type + "\"");
    }
    return b.build();
  }

  private static Value stringScalar(MapValue node, SchemaPath path) {
    Value format = present(node, "format");
    if (format == null) {
      return Value.of("string");
    }
    if (!(format instanceof StringValue s)) {
      throw path.field("format").error("must be a string, got " + describe(format));
    }
    // Only plain strings and base64 bytes compare as strings; every other format (date-time,
    // int-or-string, ...) has several spellings of one value, so schemaconv leaves it untyped.
    return s.value().isEmpty() || s.value().equals("byte") ? Value.of("string") : UNTYPED;
  }

  /** A type reference to a schema node (schemaconv's makeOpenAPIRef). */
  private MapValue typeRef(Value value, SchemaPath path, boolean preserveUnknownFields) {
    MapValue node = asSchema(value, path);
    String named = refOf(node, path);
    boolean nullable = flag(node, "nullable", path);
    MapValue.Builder b = MapValue.builder(4);
    if (named != null) {
      b.put("namedType", Value.of(named));
      // A property may override the map semantics of the type it refers to.
      Value relationship = mapRelationship(node, path);
      if (relationship != null) {
        b.put("elementRelationship", relationship);
      }
    } else {
      atom(node, path, preserveUnknownFields).forEach(b::put);
    }
    if (nullable) {
      b.put("nullable", Value.of(true));
    }
    return b.build();
  }

  /**
   * The definition a node refers to through {@code $ref} or through an {@code allOf} holding a
   * single {@code $ref} (how Kubernetes' v3 documents attach defaults to references), or null.
   */
  private String refOf(MapValue node, SchemaPath path) {
    Value ref = node.getOrNull("$ref");
    SchemaPath refPath = path.field("$ref");
    if (ref == null) {
      Value allOf = node.getOrNull("allOf");
      if (allOf instanceof ListValue l && l.size() == 1 && l.get(0) instanceof MapValue only) {
        ref = only.getOrNull("$ref");
        refPath = path.field("allOf").index(0).field("$ref");
      }
    }
    if (ref == null) {
      return null;
    }
    if (!(ref instanceof StringValue s)) {
      throw refPath.error("must be a string, got " + describe(ref));
    }
    String text = s.value();
    if (!text.startsWith(REF_PREFIX) || text.length() == REF_PREFIX.length()) {
      throw refPath.error("unsupported reference \"" + text + "\": only references of the form "
          + REF_PREFIX + "<name> are supported");
    }
    String encoded = text.substring(REF_PREFIX.length());
    if (encoded.indexOf('/') >= 0) {
      throw refPath.error("unsupported reference \"" + text
          + "\": references must name a whole schema of components.schemas");
    }
    String name = encoded.replace("~1", "/").replace("~0", "~");
    if (!definitions.containsKey(name)) {
      throw refPath.error("unresolvable reference \"" + text + "\": there is no schema named \""
          + name + "\"");
    }
    return name;
  }

  /** A map atom (schemaconv's parseObject). */
  private MapValue object(MapValue node, SchemaPath path, boolean preserveUnknownFields) {
    MapValue properties = properties(node, path);
    List<String> names = new ArrayList<>(properties.size());
    for (int i = 0; i < properties.size(); i++) {
      names.add(properties.keyAt(i));
    }
    names.sort(Values::compareStrings);
    ListValue.Builder fields = ListValue.builder(names.size());
    SchemaPath propertiesPath = path.field("properties");
    for (String name : names) {
      Value property = properties.getOrNull(name);
      SchemaPath propertyPath = propertiesPath.key(name);
      MapValue.Builder field = MapValue.builder(3)
          .put("name", Value.of(name))
          .put("type", typeRef(property, propertyPath, preserveUnknownFields));
      Value defaultValue = present((MapValue) property, "default");
      if (defaultValue != null) {
        field.put("default", defaultValue);
      }
      fields.add(field.build());
    }

    MapValue elementType;
    Value additional = present(node, "additionalProperties");
    if (additional == null) {
      // Without properties an object is free-form; with them, unknown fields are not part of the
      // type unless preserve-unknown-fields is in effect.
      elementType = preserveUnknownFields || properties.isEmpty() ? namedRef(UNTYPED_DEDUCED) : null;
    } else if (additional instanceof MapValue) {
      elementType = typeRef(additional, path.field("additionalProperties"), preserveUnknownFields);
    } else if (additional instanceof BooleanValue allowed) {
      elementType = allowed.value() ? namedRef(UNTYPED_DEDUCED) : null;
    } else {
      throw path.field("additionalProperties")
          .error("must be a boolean or a schema, got " + describe(additional));
    }

    Value relationship = mapRelationship(node, path);
    MapValue.Builder b = MapValue.builder(3);
    ListValue fieldList = fields.build();
    if (!fieldList.isEmpty()) {
      b.put("fields", fieldList);
    }
    if (elementType != null) {
      b.put("elementType", elementType);
    }
    if (relationship != null) {
      b.put("elementRelationship", relationship);
    }
    return b.build();
  }

  private static MapValue properties(MapValue node, SchemaPath path) {
    Value properties = present(node, "properties");
    if (properties == null) {
      return MapValue.empty();
    }
    if (!(properties instanceof MapValue m)) {
      throw path.field("properties").error("must be an object, got " + describe(properties));
    }
    for (int i = 0; i < m.size(); i++) {
      asSchema(m.valueAt(i), path.field("properties").key(m.keyAt(i)));
    }
    return m;
  }

  /** {@code x-kubernetes-map-type} as an SMD element relationship, or null when unset. */
  private static Value mapRelationship(MapValue node, SchemaPath path) {
    Value mapType = present(node, MAP_TYPE);
    if (mapType == null) {
      return null;
    }
    if (mapType instanceof StringValue s) {
      switch (s.value()) {
        case "atomic" -> {
          return ATOMIC;
        }
        case "granular" -> {
          return SEPARABLE;
        }
        default -> { }
      }
    }
    throw path.field(MAP_TYPE)
        .error("unknown map type " + describe(mapType) + " (expected atomic or granular)");
  }

  /** A list atom (schemaconv's parseList). */
  private MapValue list(MapValue node, SchemaPath path, boolean preserveUnknownFields,
      String type) {
    Value relationship = ATOMIC;
    ListValue keys = null;
    Value listType = present(node, LIST_TYPE);
    Value mapKeys = present(node, LIST_MAP_KEYS);
    Value strategy = present(node, PATCH_STRATEGY);
    boolean mapList = listType instanceof StringValue s && s.value().equals("map");
    if (mapKeys != null && !mapList) {
      throw path.field(LIST_MAP_KEYS).error("may only be set when " + LIST_TYPE + " is map");
    }
    if (listType != null) {
      String lt = listType instanceof StringValue s ? s.value() : "";
      switch (lt) {
        case "atomic" -> relationship = ATOMIC;
        case "set" -> relationship = ASSOCIATIVE;
        case "map" -> {
          relationship = ASSOCIATIVE;
          keys = mapKeys(mapKeys, path.field(LIST_MAP_KEYS));
        }
        default -> throw path.field(LIST_TYPE)
            .error("unknown list type " + describe(listType) + " (expected atomic, set or map)");
      }
    } else if (strategy != null) {
      // Lists published before list types existed: strategic merge patch's merge key is the key.
      String ps = strategy instanceof StringValue s ? s.value() : "";
      switch (ps) {
        case "merge", "merge,retainKeys" -> {
          relationship = ASSOCIATIVE;
          Value mergeKey = present(node, PATCH_MERGE_KEY);
          if (mergeKey != null) {
            if (!(mergeKey instanceof StringValue key) || key.value().isEmpty()) {
              throw path.field(PATCH_MERGE_KEY)
                  .error("must be a non-empty string, got " + describe(mergeKey));
            }
            keys = ListValue.of(List.of(mergeKey));
          }
          // Without a merge key a merged list is a set.
        }
        case "retainKeys" -> relationship = ATOMIC;
        default -> throw path.field(PATCH_STRATEGY)
            .error("unknown patch strategy " + describe(strategy));
      }
    }

    MapValue elementType;
    Value items = present(node, "items");
    if (items != null) {
      if (!(items instanceof MapValue)) {
        throw path.field("items").error(
            "structural schema arrays must have exactly one member subtype, got " + describe(items));
      }
      elementType = typeRef(items, path.field("items"), preserveUnknownFields);
      if (mapList) {
        checkKeysAreItemFields((MapValue) items, keys, path);
      }
    } else if (!type.isEmpty()) {
      throw path.error("items must be specified on arrays");
    } else {
      elementType = namedRef(UNTYPED_ATOMIC);
    }

    MapValue.Builder b = MapValue.builder(3)
        .put("elementType", elementType)
        .put("elementRelationship", relationship);
    if (keys != null) {
      b.put("keys", keys);
    }
    return b.build();
  }

  private static ListValue mapKeys(Value keys, SchemaPath path) {
    if (keys == null) {
      throw path.error("must be set when " + LIST_TYPE + " is map");
    }
    if (!(keys instanceof ListValue list) || list.isEmpty()) {
      throw path.error("must be a non-empty list of field names, got " + describe(keys));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof StringValue s) || s.value().isEmpty()) {
        throw path.index(i).error("must be a non-empty string, got " + describe(list.get(i)));
      }
      if (!seen.add(s.value())) {
        throw path.index(i).error("duplicate key field \"" + s.value() + "\"");
      }
    }
    return list;
  }

  /**
   * Rejects list-map keys that the item type cannot have: SMD would fail on every item later.
   * Checked only where the items declare their properties (free-form items have any field).
   */
  private void checkKeysAreItemFields(MapValue items, ListValue keys, SchemaPath path) {
    MapValue itemSchema = items;
    String named = refOf(items, path.field("items"));
    if (named != null) {
      if (!(definitions.get(named).schema() instanceof MapValue resolved)) {
        return;
      }
      itemSchema = resolved;
    }
    Value itemType = itemSchema.getOrNull("type");
    if (itemType instanceof StringValue t && !t.value().equals("object")) {
      throw path.field(LIST_TYPE).error("list type map requires object items, but the items are of"
          + " type " + t.value());
    }
    if (!(itemSchema.getOrNull("properties") instanceof MapValue properties)
        || properties.isEmpty()) {
      return;
    }
    for (int i = 0; i < keys.size(); i++) {
      String key = ((StringValue) keys.get(i)).value();
      if (!properties.containsKey(key)) {
        throw path.field(LIST_MAP_KEYS).index(i)
            .error("key field \"" + key + "\" is not a property of the list items");
      }
    }
  }

  /** The value of {@code key}, or null when it is absent or JSON null. */
  private static Value present(MapValue node, String key) {
    Value v = node.getOrNull(key);
    return v == null || v.isNull() ? null : v;
  }

  static MapValue asSchema(Value value, SchemaPath path) {
    if (value instanceof MapValue m) {
      return m;
    }
    throw path.error("a schema must be a JSON object, got " + describe(value));
  }

  private static String typeOf(MapValue node, SchemaPath path) {
    Value type = present(node, "type");
    if (type == null) {
      return "";
    }
    if (type instanceof StringValue s) {
      return s.value();
    }
    // OpenAPI v2 allowed a list of types; like kube-openapi, only the first one counts.
    if (type instanceof ListValue l) {
      if (l.isEmpty()) {
        return "";
      }
      if (l.get(0) instanceof StringValue s) {
        return s.value();
      }
    }
    throw path.field("type").error("must be a string, got " + describe(type));
  }

  static boolean flag(MapValue node, String name, SchemaPath path) {
    Value v = present(node, name);
    if (v == null) {
      return false;
    }
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    throw path.field(name).error("must be a boolean, got " + describe(v));
  }

  static String describe(Value v) {
    return switch (v.kind()) {
      case STRING -> "\"" + ((StringValue) v).value() + "\"";
      case MAP -> "an object";
      case LIST -> "a list";
      case NULL -> "null";
      case BOOLEAN, INTEGER, FLOAT ->
          v.kind().name().toLowerCase(Locale.ROOT) + " " + Json.write(v);
    };
  }
}
