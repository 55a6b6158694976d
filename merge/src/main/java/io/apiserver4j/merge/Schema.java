/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.internal.CompiledSchema;
import io.apiserver4j.merge.internal.NamedTypes;
import io.apiserver4j.merge.internal.SmdSchemaCodec;
import io.apiserver4j.merge.internal.TypeNode;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A set of named types in structured-merge-diff's model: scalars, lists (atomic or associative,
 * with keys), maps and structs (atomic or granular, with declared fields and an element type for
 * other keys). Types refer to each other by name, so recursive types are fine; references are
 * resolved lazily and cached, and a reference to an unknown type is reported when a value is
 * walked through it, as in SMD.
 *
 * <p>Load SMD's own YAML format with {@link #fromSmdYaml} or an already parsed document with
 * {@link #fromSmdValue}; both reject unknown keys, wrong value types, unknown element
 * relationships or scalar names, and duplicate type or field names with a {@link
 * SchemaException} naming the location. {@link #fromSmdTypes} builds a schema whose types are
 * each decoded on first use, for large generated schemas of which a program uses a few types.
 *
 * <p>Immutable and thread-safe. Typed values compare schemas by identity, as SMD does: two
 * values can only be merged or compared if they were typed with the same {@code Schema}
 * instance.
 */
public final class Schema {
  /**
   * SMD's deduced schema, built on first use and written as JSON: a server serving only typed
   * kinds never needs it, and JSON needs no YAML parser loaded at class initialisation.
   */
  private static final class Deduced {
    static final Schema INSTANCE = fromSmdValue(io.apiserver4j.core.Json.read(String.join("",
        "{\"types\":[",
        "{\"name\":\"__untyped_atomic_\",\"scalar\":\"untyped\",",
        "\"list\":{\"elementType\":{\"namedType\":\"__untyped_atomic_\"},",
        "\"elementRelationship\":\"atomic\"},",
        "\"map\":{\"elementType\":{\"namedType\":\"__untyped_atomic_\"},",
        "\"elementRelationship\":\"atomic\"}},",
        "{\"name\":\"__untyped_deduced_\",\"scalar\":\"untyped\",",
        "\"list\":{\"elementType\":{\"namedType\":\"__untyped_atomic_\"},",
        "\"elementRelationship\":\"atomic\"},",
        "\"map\":{\"elementType\":{\"namedType\":\"__untyped_deduced_\"},",
        "\"elementRelationship\":\"separable\"}}]}")));
  }

  /** The name of SMD's atomic untyped type (anything, one leaf). */
  public static final String UNTYPED_ATOMIC = "__untyped_atomic_";
  /** The name of SMD's deduced type (maps granular all the way down, lists atomic). */
  public static final String UNTYPED_DEDUCED = "__untyped_deduced_";

  private final NamedTypes types;
  private final CompiledSchema compiled;
  private int hash;

  private Schema(NamedTypes types) {
    this.types = types;
    this.compiled = new CompiledSchema(types);
  }

  /**
   * A schema of the given named types.
   *
   * @param types the types, unique by name
   * @return the schema
   * @throws SchemaException when a name is repeated
   */
  public static Schema of(List<TypeDef> types) {
    requireNonNull(types, "types");
    return new Schema(NamedTypes.of(types));
  }

  /**
   * Parses SMD schema YAML ({@code types: [...]}).
   *
   * @throws SchemaException if the text is not YAML or not a valid schema
   * @param yaml the SMD schema YAML
   * @return the schema
   */
  public static Schema fromSmdYaml(String yaml) {
    requireNonNull(yaml, "yaml");
    Value v;
    try {
      v = Yaml.read(yaml);
    } catch (DecodeException e) {
      throw new SchemaException("schema is not valid YAML: " + e.getMessage());
    }
    return fromSmdValue(v);
  }

  /**
   * Builds a schema from a parsed SMD schema document (a map with a {@code types} list). This is
   * the entry point for converters that produce SMD's format, such as the OpenAPI one.
   *
   * @throws SchemaException if the document is not a valid schema
   * @param schema the parsed SMD schema document
   * @return the schema
   */
  public static Schema fromSmdValue(Value schema) {
    requireNonNull(schema, "schema");
    return new Schema(NamedTypes.of(SmdSchemaCodec.read(schema)));
  }

  /**
   * A schema of the types called {@code typeNames}, each decoded from its SMD type definition
   * ({@code {name: ..., map: {...}}}, an element of an SMD document's {@code types}) when first
   * needed: by {@link #findNamedType}, {@link #resolve} or typing a value through it. Meant for
   * large generated schemas of which a program uses a few types; {@link #types()},
   * {@link #equals} and {@link #toSmdValue()} decode them all. Each type is decoded once, whatever
   * the threads; the schema is as immutable and thread-safe as one built by
   * {@link #fromSmdValue}, and equal to it for the same definitions.
   *
   * <p>A definition is checked as {@link #fromSmdValue} checks it when it is decoded: an invalid
   * one (or one {@code definitions} cannot give, or one of another name) throws a {@link
   * SchemaException} naming its location ({@code types[<index>] "<name>"}) from the call that
   * needed it, and again from every later one.
   *
   * @param typeNames the names of the types, unique, in definition order
   * @param definitions gives the SMD type definition of each name of {@code typeNames}
   * @return the schema
   * @throws SchemaException when a name is empty or repeated
   */
  public static Schema fromSmdTypes(List<String> typeNames,
      Function<String, ? extends Value> definitions) {
    requireNonNull(typeNames, "typeNames");
    requireNonNull(definitions, "definitions");
    return new Schema(NamedTypes.lazy(typeNames, definitions::apply));
  }

  /**
   * The schema SMD uses for objects without a schema: the two untyped types.
   *
   * @return the shared deduced schema
   */
  public static Schema deducedSchema() {
    return Deduced.INSTANCE;
  }

  /**
   * The named types, in definition order.
   *
   * @return the types
   */
  public List<TypeDef> types() {
    return types.all();
  }

  /**
   * The names of the types, in definition order.
   *
   * @return the names
   */
  public List<String> typeNames() {
    return types.names();
  }

  /**
   * The type called {@code name}.
   *
   * @param name the type name
   * @return the type; empty when the schema has none of that name
   * @throws SchemaException when the schema is one of {@link #fromSmdTypes} and the type's
   *     definition is invalid
   */
  public Optional<TypeDef> findNamedType(String name) {
    requireNonNull(name, "name");
    return Optional.ofNullable(types.get(name));
  }

  /**
   * The atom {@code ref} stands for, with its element-relationship override applied; empty if the
   * named type does not exist or the override does not fit it (SMD's {@code Resolve}).
   *
   * @param ref the reference
   * @return the atom
   * @throws SchemaException when the schema is one of {@link #fromSmdTypes} and the definition of
   *     the named type is invalid
   */
  public Optional<Atom> resolve(TypeRef ref) {
    requireNonNull(ref, "ref");
    TypeNode n = compiled.resolve(ref);
    if (n.unresolved != null) {
      return Optional.empty();
    }
    Atom a = Atom.empty();
    if (n.scalar != null) {
      a = a.withScalar(n.scalar);
    }
    if (n.list != null) {
      Atom base = ref.namedType().map(types::get).map(TypeDef::atom).orElse(ref.inlined());
      ListType l = base.list().orElseThrow();
      a = a.withList(new ListType(l.elementType(),
          n.list.atomic ? ElementRelationship.ATOMIC : ElementRelationship.ASSOCIATIVE, l.keys()));
    }
    if (n.map != null) {
      a = a.withMap(n.map.type().withElementRelationship(
          n.map.atomic ? ElementRelationship.ATOMIC : ElementRelationship.SEPARABLE));
    }
    return Optional.of(a);
  }

  /**
   * The named type {@code name}; an unknown name fails when a value is typed with it.
   *
   * @param name the type name
   * @return the type
   */
  public ParseableType type(String name) {
    requireNonNull(name, "name");
    return new ParseableType(this, TypeRef.named(name));
  }

  /**
   * The type {@code ref} of this schema.
   *
   * @param ref the reference, named or inline
   * @return the type
   */
  public ParseableType type(TypeRef ref) {
    requireNonNull(ref, "ref");
    return new ParseableType(this, ref);
  }

  /**
   * This schema in SMD's YAML document shape; {@link #fromSmdValue} of it gives an equal schema.
   *
   * @return the document, a map with a {@code types} list
   */
  public Value toSmdValue() {
    return SmdSchemaCodec.write(types.all());
  }

  /** Structural equality of the type definitions (in order). */
  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof Schema s && types.names().equals(s.types.names())
        && types.all().equals(s.types.all());
  }

  /** A hash of the type names, so that a lazily decoded schema keys a cache without decoding. */
  @Override
  public int hashCode() {
    // schemas key caches and hold hundreds of types: the hash is computed once, as String's
    int h = hash;
    if (h == 0) {
      h = types.names().hashCode();
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return "Schema{" + types.names().size() + " types}";
  }

  CompiledSchema compiled() {
    return compiled;
  }
}
