/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.ElementRelationship;
import io.apiserver4j.merge.ListType;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.ScalarType;
import io.apiserver4j.merge.SchemaException;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeDef;
import io.apiserver4j.merge.TypeRef;
import io.apiserver4j.merge.Union;
import io.apiserver4j.merge.UnionField;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads and writes structured-merge-diff's own schema format ({@code types: [...]}). Reading is
 * as strict as SMD's schema-of-schemas validation: unknown keys, wrong value types and duplicate
 * type or field names are errors; in addition, element relationships and scalar names must be
 * ones SMD knows, so that a typo fails at load time instead of silently changing merge
 * behaviour.
 */
public final class SmdSchemaCodec {
  private static final Set<String> ROOT_KEYS = Set.of("types");
  private static final Set<String> TYPE_DEF_KEYS = Set.of("name", "scalar", "list", "map", "untyped");
  private static final Set<String> TYPE_REF_KEYS =
      Set.of("namedType", "scalar", "list", "map", "untyped", "elementRelationship", "nullable");
  private static final Set<String> MAP_KEYS =
      Set.of("fields", "unions", "elementType", "elementRelationship");
  private static final Set<String> LIST_KEYS = Set.of("elementType", "elementRelationship", "keys");
  private static final Set<String> FIELD_KEYS = Set.of("name", "type", "default");
  private static final Set<String> UNION_KEYS =
      Set.of("discriminator", "deduceInvalidDiscriminator", "fields");
  private static final Set<String> UNION_FIELD_KEYS = Set.of("fieldName", "discriminatorValue");
  private static final Set<String> UNTYPED_KEYS = Set.of("elementRelationship");

  private SmdSchemaCodec() {}

  /** Parses the named types of an SMD schema document. */
  public static List<TypeDef> read(Value schema) {
    if (schema.isNull()) {
      return List.of();
    }
    MapValue root = map(schema, "schema");
    checkKeys(root, ROOT_KEYS, "schema");
    ListValue types = list(root.getOrNull("types"), "types");
    if (types == null) {
      return List.of();
    }
    List<TypeDef> out = new ArrayList<>(types.size());
    Set<String> names = new HashSet<>();
    for (int i = 0; i < types.size(); i++) {
      String where = "types[" + i + "]";
      MapValue def = map(types.get(i), where);
      String name = name(def, where);
      where = where + " \"" + name + "\"";
      if (!names.add(name)) {
        throw new SchemaException(where + ": duplicate type name \"" + name + "\"");
      }
      out.add(typeDef(def, name, where));
    }
    return out;
  }

  /**
   * Parses one named type, the {@code index}th of its schema's {@code types}; errors name it as
   * {@link #read} does ({@code types[<index>] "<name>"...}).
   */
  public static TypeDef readType(Value definition, int index) {
    String where = "types[" + index + "]";
    MapValue def = map(definition, where);
    String name = name(def, where);
    return typeDef(def, name, where + " \"" + name + "\"");
  }

  private static String name(MapValue def, String where) {
    String name = string(def.getOrNull("name"), where + ".name");
    if (name == null || name.isEmpty()) {
      throw new SchemaException(where + ": type definition has no name");
    }
    return name;
  }

  private static TypeDef typeDef(MapValue def, String name, String where) {
    checkKeys(def, TYPE_DEF_KEYS, where);
    return new TypeDef(name, atom(def, where));
  }

  private static Atom atom(MapValue m, String where) {
    Atom atom = Atom.empty();
    String scalar = string(m.getOrNull("scalar"), where + ".scalar");
    if (scalar != null) {
      if (scalar.isEmpty()) {
        throw new SchemaException(where + ".scalar: empty scalar type");
      }
      atom = atom.withScalar(ScalarType.of(scalar));
    }
    Value list = m.getOrNull("list");
    if (list != null && !list.isNull()) {
      atom = atom.withList(listType(map(list, where + ".list"), where + ".list"));
    }
    Value map = m.getOrNull("map");
    if (map != null && !map.isNull()) {
      atom = atom.withMap(mapType(map(map, where + ".map"), where + ".map"));
    }
    Value untyped = m.getOrNull("untyped");
    if (untyped != null && !untyped.isNull()) {
      // Accepted by SMD's schema-of-schemas but carries no meaning; still reject typos inside.
      MapValue u = map(untyped, where + ".untyped");
      checkKeys(u, UNTYPED_KEYS, where + ".untyped");
      string(u.getOrNull("elementRelationship"), where + ".untyped.elementRelationship");
    }
    return atom;
  }

  private static TypeRef typeRef(Value v, String where) {
    if (v == null || v.isNull()) {
      return TypeRef.none();
    }
    MapValue m = map(v, where);
    checkKeys(m, TYPE_REF_KEYS, where);
    String named = string(m.getOrNull("namedType"), where + ".namedType");
    Atom inline = atom(m, where);
    TypeRef ref;
    if (named != null && !named.isEmpty()) {
      if (!inline.isEmpty()) {
        throw new SchemaException(
            where + ": namedType \"" + named + "\" and an inline type are mutually exclusive");
      }
      ref = TypeRef.named(named);
    } else {
      ref = TypeRef.inline(inline);
    }
    String rel = string(m.getOrNull("elementRelationship"), where + ".elementRelationship");
    if (rel != null && !rel.isEmpty()) {
      ref = ref.withElementRelationship(relationship(rel, where + ".elementRelationship"));
    }
    Boolean nullable = bool(m.getOrNull("nullable"), where + ".nullable");
    if (nullable != null && nullable) {
      ref = ref.asNullable();
    }
    return ref;
  }

  private static ElementRelationship relationship(String rel, String where) {
    return ElementRelationship.fromSmdName(rel).orElseThrow(() -> new SchemaException(
        where + ": unknown elementRelationship \"" + rel
            + "\" (expected atomic, associative or separable)"));
  }

  private static ListType listType(MapValue m, String where) {
    checkKeys(m, LIST_KEYS, where);
    TypeRef element = typeRef(m.getOrNull("elementType"), where + ".elementType");
    String rel = string(m.getOrNull("elementRelationship"), where + ".elementRelationship");
    if (rel == null || rel.isEmpty()) {
      throw new SchemaException(where + ": a list must declare elementRelationship atomic or associative");
    }
    ElementRelationship r = relationship(rel, where + ".elementRelationship");
    List<String> keys = new ArrayList<>();
    ListValue k = list(m.getOrNull("keys"), where + ".keys");
    if (k != null) {
      for (int i = 0; i < k.size(); i++) {
        String key = string(k.get(i), where + ".keys[" + i + "]");
        if (key == null) {
          throw new SchemaException(where + ".keys[" + i + "]: expected string, got null");
        }
        keys.add(key);
      }
    }
    try {
      return new ListType(element, r, keys);
    } catch (SchemaException e) {
      throw new SchemaException(where + ": " + e.getMessage());
    }
  }

  private static MapType mapType(MapValue m, String where) {
    checkKeys(m, MAP_KEYS, where);
    List<StructField> fields = new ArrayList<>();
    ListValue fl = list(m.getOrNull("fields"), where + ".fields");
    if (fl != null) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < fl.size(); i++) {
        String at = where + ".fields[" + i + "]";
        MapValue f = map(fl.get(i), at);
        String name = string(f.getOrNull("name"), at + ".name");
        if (name == null) {
          throw new SchemaException(at + ": field has no name");
        }
        at = at + " \"" + name + "\"";
        checkKeys(f, FIELD_KEYS, at);
        if (!seen.add(name)) {
          throw new SchemaException(at + ": duplicate field name \"" + name + "\"");
        }
        TypeRef type = typeRef(f.getOrNull("type"), at + ".type");
        Value def = f.getOrNull("default");
        fields.add(def == null || def.isNull()
            ? StructField.of(name, type)
            : StructField.withDefault(name, type, def));
      }
    }
    List<Union> unions = new ArrayList<>();
    ListValue ul = list(m.getOrNull("unions"), where + ".unions");
    if (ul != null) {
      for (int i = 0; i < ul.size(); i++) {
        unions.add(union(map(ul.get(i), where + ".unions[" + i + "]"), where + ".unions[" + i + "]"));
      }
    }
    TypeRef element = typeRef(m.getOrNull("elementType"), where + ".elementType");
    String rel = string(m.getOrNull("elementRelationship"), where + ".elementRelationship");
    ElementRelationship r = rel == null || rel.isEmpty()
        ? ElementRelationship.SEPARABLE
        : relationship(rel, where + ".elementRelationship");
    try {
      return MapType.of(fields, unions, element, r);
    } catch (SchemaException e) {
      throw new SchemaException(where + ": " + e.getMessage());
    }
  }

  private static Union union(MapValue m, String where) {
    checkKeys(m, UNION_KEYS, where);
    String disc = string(m.getOrNull("discriminator"), where + ".discriminator");
    Boolean deduce = bool(m.getOrNull("deduceInvalidDiscriminator"), where + ".deduceInvalidDiscriminator");
    List<UnionField> fields = new ArrayList<>();
    ListValue fl = list(m.getOrNull("fields"), where + ".fields");
    if (fl != null) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < fl.size(); i++) {
        String at = where + ".fields[" + i + "]";
        MapValue f = map(fl.get(i), at);
        checkKeys(f, UNION_FIELD_KEYS, at);
        String name = string(f.getOrNull("fieldName"), at + ".fieldName");
        if (name == null) {
          throw new SchemaException(at + ": union field has no fieldName");
        }
        if (!seen.add(name)) {
          throw new SchemaException(at + ": duplicate union field \"" + name + "\"");
        }
        String dv = string(f.getOrNull("discriminatorValue"), at + ".discriminatorValue");
        fields.add(new UnionField(name, dv == null ? "" : dv));
      }
    }
    return disc == null
        ? Union.of(fields)
        : Union.discriminated(disc, deduce != null && deduce, fields);
  }

  private static void checkKeys(MapValue m, Set<String> allowed, String where) {
    for (int i = 0; i < m.size(); i++) {
      if (!allowed.contains(m.keyAt(i))) {
        throw new SchemaException(where + ": unknown key \"" + m.keyAt(i) + "\" (allowed: "
            + allowed.stream().sorted().toList() + ")");
      }
    }
  }

  private static MapValue map(Value v, String where) {
    if (v instanceof MapValue m) {
      return m;
    }
    if (v == null || v.isNull()) {
      return MapValue.empty();
    }
    throw new SchemaException(where + ": expected a map, got " + describe(v));
  }

  private static ListValue list(Value v, String where) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v instanceof ListValue l) {
      return l;
    }
    throw new SchemaException(where + ": expected a list, got " + describe(v));
  }

  private static String string(Value v, String where) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw new SchemaException(where + ": expected a string, got " + describe(v));
  }

  private static Boolean bool(Value v, String where) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    throw new SchemaException(where + ": expected a boolean, got " + describe(v));
  }

  private static String describe(Value v) {
    String s = v.toString();
    return v.kind().name().toLowerCase() + " " + (s.length() > 60 ? s.substring(0, 57) + "..." : s);
  }

  /** Writes {@code types} back in SMD's format; {@link #read} of the result gives equal types. */
  public static Value write(List<TypeDef> types) {
    ListValue.Builder lb = ListValue.builder(types.size());
    for (TypeDef t : types) {
      MapValue.Builder b = MapValue.builder();
      b.put("name", Value.of(t.name()));
      writeAtom(t.atom(), b);
      lb.add(b.build());
    }
    return MapValue.builder(1).put("types", lb.build()).build();
  }

  private static void writeAtom(Atom a, MapValue.Builder b) {
    a.scalar().ifPresent(s -> b.put("scalar", Value.of(s.smdName())));
    a.list().ifPresent(l -> {
      MapValue.Builder lb = MapValue.builder();
      if (!l.elementType().isNone()) {
        lb.put("elementType", writeRef(l.elementType()));
      }
      lb.put("elementRelationship", Value.of(l.elementRelationship().smdName()));
      if (!l.keys().isEmpty()) {
        ListValue.Builder kb = ListValue.builder(l.keys().size());
        l.keys().forEach(k -> kb.add(Value.of(k)));
        lb.put("keys", kb.build());
      }
      b.put("list", lb.build());
    });
    a.map().ifPresent(m -> {
      MapValue.Builder mb = MapValue.builder();
      if (!m.fields().isEmpty()) {
        ListValue.Builder fb = ListValue.builder(m.fields().size());
        for (StructField f : m.fields()) {
          MapValue.Builder sb = MapValue.builder(3);
          sb.put("name", Value.of(f.name()));
          sb.put("type", writeRef(f.type()));
          f.defaultValue().ifPresent(d -> sb.put("default", d));
          fb.add(sb.build());
        }
        mb.put("fields", fb.build());
      }
      if (!m.unions().isEmpty()) {
        ListValue.Builder ub = ListValue.builder(m.unions().size());
        for (Union u : m.unions()) {
          MapValue.Builder x = MapValue.builder(3);
          u.discriminator().ifPresent(d -> x.put("discriminator", Value.of(d)));
          if (u.deduceInvalidDiscriminator()) {
            x.put("deduceInvalidDiscriminator", Value.of(true));
          }
          ListValue.Builder fb = ListValue.builder(u.fields().size());
          for (UnionField f : u.fields()) {
            fb.add(MapValue.builder(2)
                .put("fieldName", Value.of(f.fieldName()))
                .put("discriminatorValue", Value.of(f.discriminatorValue()))
                .build());
          }
          x.put("fields", fb.build());
          ub.add(x.build());
        }
        mb.put("unions", ub.build());
      }
      if (!m.elementType().isNone()) {
        mb.put("elementType", writeRef(m.elementType()));
      }
      if (m.elementRelationship() != ElementRelationship.SEPARABLE) {
        mb.put("elementRelationship", Value.of(m.elementRelationship().smdName()));
      }
      b.put("map", mb.build());
    });
  }

  private static Value writeRef(TypeRef ref) {
    MapValue.Builder b = MapValue.builder();
    ref.namedType().ifPresent(n -> b.put("namedType", Value.of(n)));
    writeAtom(ref.inlined(), b);
    ref.elementRelationship().ifPresent(r -> b.put("elementRelationship", Value.of(r.smdName())));
    if (ref.nullable()) {
      b.put("nullable", Value.of(true));
    }
    return b.build();
  }
}
