/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link PatchSchema}s read from OpenAPI v3 documents ({@code components.schemas}), as
 * apimachinery's {@code PatchMetaFromOpenAPIV3} reads them: a property's
 * {@code x-kubernetes-patch-strategy} and {@code x-kubernetes-patch-merge-key} give its
 * {@link PatchField}; {@code allOf} (first element) and {@code $ref}
 * ({@code #/components/schemas/<name>}) are followed; {@code items} describes list elements.
 * Unlike apimachinery, {@code additionalProperties} is followed too (every key of such a map
 * has the value schema), and a field the schema does not declare is {@link PatchField#unknown()}
 * instead of an error.
 *
 * <p>The documents are checked when this is built: every {@code $ref} must resolve and every
 * patch strategy must parse, so lookups never fail. Immutable and thread-safe; lookups are
 * cached.
 */
public final class OpenApiPatchSchemas {
  private static final String REF_PREFIX = "#/components/schemas/";
  private static final int MAX_REF_CHAIN = 64;

  private final Map<String, MapValue> components;
  private final Map<GroupVersionKind, String> kinds;
  private final ConcurrentHashMap<String, Node> named = new ConcurrentHashMap<>();

  private OpenApiPatchSchemas(Map<String, MapValue> components,
      Map<GroupVersionKind, String> kinds) {
    this.components = components;
    this.kinds = kinds;
  }

  /**
   * Reads the {@code components.schemas} of {@code documents}; when several documents define
   * the same schema name, the first definition is used.
   *
   * @throws IllegalArgumentException a document has no {@code components.schemas} object, a
   *     {@code $ref} does not resolve, or a patch strategy is invalid
   * @param documents the OpenAPI v3 documents
   * @return the schemas
   */
  public static OpenApiPatchSchemas of(List<? extends Value> documents) {
    requireNonNull(documents, "documents");
    Map<String, MapValue> components = new LinkedHashMap<>();
    Map<GroupVersionKind, String> kinds = new HashMap<>();
    for (Value document : documents) {
      requireNonNull(document, "document");
      MapValue schemas = document instanceof MapValue d
          && d.getOrNull("components") instanceof MapValue c
          && c.getOrNull("schemas") instanceof MapValue s ? s : null;
      if (schemas == null) {
        throw new IllegalArgumentException(
            "an OpenAPI v3 document must have a components.schemas object");
      }
      for (int i = 0; i < schemas.size(); i++) {
        String name = schemas.keyAt(i);
        if (!(schemas.valueAt(i) instanceof MapValue schema)) {
          throw new IllegalArgumentException("schema " + name + " is not an object");
        }
        if (components.putIfAbsent(name, schema) == null) {
          for (GroupVersionKind gvk : kindsOf(schema)) {
            kinds.putIfAbsent(gvk, name);
          }
        }
      }
    }
    OpenApiPatchSchemas result = new OpenApiPatchSchemas(Map.copyOf(components),
        Map.copyOf(kinds));
    result.validate();
    return result;
  }

  /**
   * {@link #of(List)} for the given documents.
   *
   * @param documents the OpenAPI v3 documents
   * @return the schemas
   * @throws IllegalArgumentException as {@link #of(List)}
   */
  public static OpenApiPatchSchemas of(Value... documents) {
    return of(List.of(documents));
  }

  /**
   * The schema named {@code name} in {@code components.schemas}.
   *
   * @param name the schema name
   * @return the patch schema; empty when there is none
   */
  public Optional<PatchSchema> named(String name) {
    requireNonNull(name, "name");
    return components.containsKey(name) ? Optional.of(namedNode(name)) : Optional.empty();
  }

  /**
   * The schema whose {@code x-kubernetes-group-version-kind} lists {@code gvk}.
   *
   * @param gvk the kind
   * @return the patch schema; empty when no schema lists it
   */
  public Optional<PatchSchema> forKind(GroupVersionKind gvk) {
    requireNonNull(gvk, "gvk");
    String name = kinds.get(gvk);
    return name == null ? Optional.empty() : Optional.of(namedNode(name));
  }

  private Node namedNode(String name) {
    Node node = named.get(name);
    if (node != null) {
      return node;
    }
    // Resolve outside computeIfAbsent: a component may itself refer to another component.
    Resolved r = resolve(components.get(name));
    String key = r.name() != null ? r.name() : name;
    return named.computeIfAbsent(key, k -> new Node(r.schema()));
  }

  /** The node for an inline schema, following allOf/$ref to a shared named node. */
  private PatchSchema node(MapValue schema) {
    Resolved r = resolve(schema);
    return r.name() != null ? namedNode(r.name()) : new Node(r.schema());
  }

  private record Resolved(String name, MapValue schema) {}

  private Resolved resolve(MapValue schema) {
    String name = null;
    MapValue current = schema;
    for (int step = 0; step < MAX_REF_CHAIN; step++) {
      if (current.getOrNull("allOf") instanceof ListValue allOf && allOf.size() > 0
          && allOf.get(0) instanceof MapValue first) {
        current = first;
      }
      if (!(current.getOrNull("$ref") instanceof StringValue ref)) {
        return new Resolved(name, current);
      }
      name = refName(ref.value());
      current = components.get(name);
    }
    throw new IllegalStateException("$ref chain longer than " + MAX_REF_CHAIN + " at " + name);
  }

  private static String refName(String ref) {
    return ref.startsWith(REF_PREFIX) ? ref.substring(REF_PREFIX.length()) : ref;
  }

  private static List<GroupVersionKind> kindsOf(MapValue schema) {
    if (!(schema.getOrNull("x-kubernetes-group-version-kind") instanceof ListValue list)) {
      return List.of();
    }
    ArrayList<GroupVersionKind> result = new ArrayList<>();
    for (Value v : list.items()) {
      if (v instanceof MapValue m && m.getOrNull("group") instanceof StringValue g
          && m.getOrNull("version") instanceof StringValue ver
          && m.getOrNull("kind") instanceof StringValue k) {
        result.add(new GroupVersionKind(g.value(), ver.value(), k.value()));
      }
    }
    return result;
  }

  /** Checks every reachable schema once, so that lookups cannot fail later. */
  private void validate() {
    Deque<Map.Entry<String, Value>> work = new ArrayDeque<>();
    for (Map.Entry<String, MapValue> e : components.entrySet()) {
      work.push(Map.entry(e.getKey(), e.getValue()));
    }
    while (!work.isEmpty()) {
      Map.Entry<String, Value> item = work.pop();
      if (!(item.getValue() instanceof MapValue schema)) {
        continue;
      }
      String where = item.getKey();
      if (schema.getOrNull("$ref") instanceof StringValue ref
          && !components.containsKey(refName(ref.value()))) {
        throw new IllegalArgumentException(
            "unable to resolve " + ref.value() + " in OpenAPI V3 (at " + where + ")");
      }
      fieldOf(schema, where);
      if (schema.getOrNull("properties") instanceof MapValue props) {
        for (int i = 0; i < props.size(); i++) {
          work.push(Map.entry(where + "." + props.keyAt(i), props.valueAt(i)));
        }
      }
      if (schema.getOrNull("allOf") instanceof ListValue allOf) {
        for (Value v : allOf.items()) {
          work.push(Map.entry(where, v));
        }
      }
      work.push(Map.entry(where + "[]", schema.getOrNull("items") == null
          ? Value.nullValue() : schema.getOrNull("items")));
      work.push(Map.entry(where + "{}", schema.getOrNull("additionalProperties") == null
          ? Value.nullValue() : schema.getOrNull("additionalProperties")));
    }
  }

  /** Parses a property's patch extensions; validation only, the schema is irrelevant. */
  private static PatchField fieldOf(MapValue property, String where) {
    String strategy = property.getOrNull("x-kubernetes-patch-strategy") instanceof StringValue s
        ? s.value() : "";
    Optional<String> mergeKey =
        property.getOrNull("x-kubernetes-patch-merge-key") instanceof StringValue k
            ? Optional.of(k.value()) : Optional.empty();
    try {
      return PatchField.parse(strategy, mergeKey, PatchSchema.unknown());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (at " + where + ")", e);
    }
  }

  /** One (resolved) schema object; field lookups are cached. */
  private final class Node implements PatchSchema {
    private final MapValue schema;
    private final ConcurrentHashMap<String, PatchField> fields = new ConcurrentHashMap<>();
    private volatile PatchSchema items;

    Node(MapValue schema) {
      this.schema = schema;
    }

    @Override
    public PatchField field(String name) {
      requireNonNull(name, "name");
      PatchField f = fields.get(name);
      if (f == null) {
        f = lookup(name);
        PatchField previous = fields.putIfAbsent(name, f);
        f = previous != null ? previous : f;
      }
      return f;
    }

    private PatchField lookup(String name) {
      MapValue property = null;
      if (schema.getOrNull("properties") instanceof MapValue props
          && props.getOrNull(name) instanceof MapValue p) {
        property = p;
      } else if (schema.getOrNull("additionalProperties") instanceof MapValue ap) {
        property = ap;
      }
      if (property == null) {
        return PatchField.unknown();
      }
      PatchField meta = fieldOf(property, name);
      return new PatchField(meta.strategy(), meta.retainKeys(), meta.mergeKey(), node(property));
    }

    @Override
    public PatchSchema items() {
      PatchSchema i = items;
      if (i == null) {
        i = schema.getOrNull("items") instanceof MapValue itemSchema
            ? node(itemSchema) : PatchSchema.unknown();
        items = i;
      }
      return i;
    }

    @Override
    public String toString() {
      return "OpenApiPatchSchema" + schema.getOrNull("type");
    }
  }
}
