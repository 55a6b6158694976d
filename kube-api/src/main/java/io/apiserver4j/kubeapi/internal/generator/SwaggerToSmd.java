/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.generator;

import static io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator.UNTYPED_ATOMIC;
import static io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator.UNTYPED_DEDUCED;
import static io.apiserver4j.kubeapi.internal.generator.KubeApiGenerator.str;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.TreeSet;

/**
 * A swagger (OpenAPI v2) definition as a structured-merge-diff type, read the way kube-openapi's
 * {@code schemaconv} reads kube's OpenAPI: properties become struct fields (sorted by name),
 * {@code additionalProperties} the element type of a map, {@code x-kubernetes-map-type: atomic}
 * an atomic map; arrays follow {@code x-kubernetes-list-type} and, without it, the patch
 * strategy ({@code merge} with a merge key is a keyed list, {@code merge} alone a set) and are
 * atomic otherwise; {@code int-or-string} and schemas with no type are untyped. Used for the
 * types client-go's SMD schema does not have.
 */
final class SwaggerToSmd {
  private SwaggerToSmd() {}

  /** The SMD type {@code name} (a {@code types} entry). */
  static MapValue namedType(String name, MapValue def) {
    MapValue.Builder b = MapValue.builder().put("name", Value.of(name));
    atom(def, true).forEach(b::put);
    return b.build();
  }

  // The atom of a schema; at the top of a named type an untyped schema is SMD's deduced atom.
  private static MapValue atom(MapValue s, boolean named) {
    String type = str(s, "type");
    if (type.equals("object") || s.getOrNull("properties") != null) {
      return MapValue.ofEntries("map", mapAtom(s));
    }
    switch (type) {
      case "array":
        return MapValue.ofEntries("list", listAtom(s));
      case "string":
        return MapValue.ofEntries("scalar", Value.of(
            str(s, "format").equals("int-or-string") ? "untyped" : "string"));
      case "integer":
      case "number":
        return MapValue.ofEntries("scalar", Value.of("numeric"));
      case "boolean":
        return MapValue.ofEntries("scalar", Value.of("boolean"));
      default:
        return named ? deduced() : MapValue.ofEntries("namedType", Value.of(UNTYPED_DEDUCED));
    }
  }

  private static MapValue typeRef(MapValue s) {
    String ref = str(s, "$ref");
    if (!ref.isEmpty()) {
      return MapValue.ofEntries("namedType", Value.of(ref.substring("#/definitions/".length())));
    }
    if (s.getOrNull("allOf") instanceof ListValue all && all.size() == 1) {
      return typeRef((MapValue) all.get(0));
    }
    return atom(s, false);
  }

  private static MapValue mapAtom(MapValue s) {
    MapValue.Builder map = MapValue.builder();
    if (s.getOrNull("properties") instanceof MapValue props && !props.isEmpty()) {
      ListValue.Builder fields = ListValue.builder();
      for (String f : new TreeSet<>(props.asMap().keySet())) {
        fields.add(MapValue.ofEntries("name", Value.of(f),
            "type", typeRef((MapValue) props.getOrNull(f))));
      }
      map.put("fields", fields.build());
    }
    if (s.getOrNull("additionalProperties") instanceof MapValue additional) {
      map.put("elementType", typeRef(additional));
    } else if (s.getOrNull("properties") == null) {
      // an object with nothing declared holds anything
      map.put("elementType", MapValue.ofEntries("namedType", Value.of(UNTYPED_DEDUCED)));
    }
    if (str(s, "x-kubernetes-map-type").equals("atomic")) {
      map.put("elementRelationship", Value.of("atomic"));
    }
    return map.build();
  }

  private static MapValue listAtom(MapValue s) {
    MapValue.Builder list = MapValue.builder();
    MapValue items = s.getOrNull("items") instanceof MapValue i ? i : MapValue.empty();
    list.put("elementType", typeRef(items));
    String listType = str(s, "x-kubernetes-list-type");
    String strategy = str(s, "x-kubernetes-patch-strategy");
    String mergeKey = str(s, "x-kubernetes-patch-merge-key");
    if (listType.isEmpty() && List.of(strategy.split(",")).contains("merge")) {
      listType = mergeKey.isEmpty() ? "set" : "map";
    }
    switch (listType) {
      case "set":
        list.put("elementRelationship", Value.of("associative"));
        break;
      case "map": {
        ListValue.Builder keys = ListValue.builder();
        if (s.getOrNull("x-kubernetes-list-map-keys") instanceof ListValue k) {
          k.items().forEach(keys::add);
        } else {
          keys.add(Value.of(mergeKey));
        }
        list.put("elementRelationship", Value.of("associative")).put("keys", keys.build());
        break;
      }
      default:
        list.put("elementRelationship", Value.of("atomic"));
    }
    return list.build();
  }

  private static MapValue deduced() {
    return MapValue.ofEntries(
        "scalar", Value.of("untyped"),
        "list", MapValue.ofEntries("elementType", MapValue.ofEntries("namedType",
            Value.of(UNTYPED_ATOMIC)), "elementRelationship", Value.of("atomic")),
        "map", MapValue.ofEntries("elementType", MapValue.ofEntries("namedType",
            Value.of(UNTYPED_DEDUCED)), "elementRelationship", Value.of("separable")));
  }
}
