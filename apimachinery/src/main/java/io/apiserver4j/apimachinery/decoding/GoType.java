/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.ScalarType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.TypeRef;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Go type a value of a built-in object is decoded into, as far as decoding cares: its kind,
 * the text Go prints for it in errors ({@code int32}, {@code v1.DeploymentSpec},
 * {@code []v1.Container}), and for structs, slices and maps where their members come from.
 * Built from the SMD schema plus the generated Go types SMD does not say
 * ({@code io.apiserver4j.kubeapi.KubeSchema#goTypes}).
 *
 * @param kind what decoding does with a value of this type
 * @param goName the type as Go's {@code reflect.Type.String()} prints it
 * @param ref the SMD type (structs, slices and maps: where fields and elements are found)
 * @param code the generated Go type of a slice or map (its element type), or empty
 */
public record GoType(Kind kind, String goName, TypeRef ref, String code) {

  /** The Go kinds the decoder distinguishes. */
  public enum Kind {
    /** {@code bool}. */
    BOOL,
    /** {@code string}. */
    STRING,
    /** {@code int32}. */
    INT32,
    /** {@code int64}. */
    INT64,
    /** {@code uint8}. */
    UINT8,
    /** {@code float32}. */
    FLOAT32,
    /** {@code float64}. */
    FLOAT64,
    /** {@code []byte}, base64 in JSON. */
    BYTES,
    /** {@code intstr.IntOrString}. */
    INT_OR_STRING,
    /** {@code resource.Quantity}. */
    QUANTITY,
    /** {@code metav1.Time}. */
    TIME,
    /** {@code metav1.MicroTime}. */
    MICRO_TIME,
    /** Anything is kept as given (RawExtension, apiextensions JSON, untyped SMD fields). */
    RAW,
    /** A struct. */
    STRUCT,
    /** A slice. */
    SLICE,
    /** A map. */
    MAP;

    /**
     * Whether values of this kind are Go integers.
     *
     * @return true for {@code int32}, {@code int64} and {@code uint8}
     */
    public boolean isInteger() {
      return this == INT32 || this == INT64 || this == UINT8;
    }
  }

  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

  /**
   * A struct's fields and their Go types, resolved once.
   *
   * @param name the Go struct's own name ({@code DeploymentSpec}), as decoding errors print it
   */
  public record StructInfo(String name, Map<String, GoType> fields) {}

  /** Resolves Go types of one schema, cached; thread-safe. */
  public static final class Resolver {
    private final Schema schema;
    private final Map<String, Map<String, String>> goTypes;
    private final ConcurrentHashMap<TypeRef, GoType> byRef = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TypeRef, Optional<Atom>> atoms = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TypeRef, StructInfo> structs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<GoType, GoType> elements = new ConcurrentHashMap<>();

    /**
     * A resolver over a schema and the Go type names of its fields.
     *
     * @param schema the SMD schema
     * @param goTypes by type name, the Go type of each field that the schema alone does not tell
     */
    public Resolver(Schema schema, Map<String, Map<String, String>> goTypes) {
      this.schema = schema;
      this.goTypes = goTypes;
    }

    /**
     * The atom {@code ref} stands for, cached.
     *
     * @param ref the type reference
     * @return the atom; empty when it does not resolve
     */
    public Optional<Atom> atom(TypeRef ref) {
      // a plain read first: computeIfAbsent locks the bin even when the type is cached
      Optional<Atom> a = atoms.get(ref);
      return a != null ? a : atoms.computeIfAbsent(ref, schema::resolve);
    }

    /**
     * The Go type of a named struct type.
     *
     * @param typeName the OpenAPI type name
     * @return the Go type
     */
    public GoType named(String typeName) {
      return of(TypeRef.named(typeName));
    }

    /**
     * The fields of struct type {@code t}; none when the schema does not know it.
     *
     * @param t the struct type
     * @return the struct's fields
     */
    public StructInfo struct(GoType t) {
      StructInfo known = structs.get(t.ref());
      if (known == null) {
        Map<String, GoType> fields = new java.util.HashMap<>();
        atom(t.ref()).flatMap(Atom::map).ifPresent(m -> m.fields().forEach(f ->
            fields.put(f.name(), field(t, f.name(), f.type()))));
        known = new StructInfo(t.structName(), Map.copyOf(fields));
        structs.put(t.ref(), known);
      }
      return known;
    }

    /**
     * The Go type of field {@code field} (SMD type {@code ref}) of struct {@code owner}.
     *
     * @param owner the struct
     * @param field the field name
     * @param ref the field's SMD type
     * @return the field's Go type
     */
    public GoType field(GoType owner, String field, TypeRef ref) {
      String code = owner.ref().namedType().map(goTypes::get).map(f -> f.get(field))
          .orElse(null);
      return code == null ? of(ref) : ofCode(code, ref);
    }

    /**
     * The element type of a slice or the value type of a map.
     *
     * @param container the slice or map type
     * @return the element's Go type
     */
    public GoType element(GoType container) {
      GoType known = elements.get(container);
      if (known == null) {
        known = resolveElement(container);
        elements.put(container, known);
      }
      return known;
    }

    private GoType resolveElement(GoType container) {
      if (!container.code().isEmpty()) {
        return ofCode(container.code(), elementRef(container.ref()));
      }
      return of(elementRef(container.ref()));
    }

    private TypeRef elementRef(TypeRef ref) {
      Optional<Atom> a = atom(ref);
      if (a.isEmpty()) {
        return TypeRef.none();
      }
      if (a.get().list().isPresent()) {
        return a.get().list().get().elementType();
      }
      return a.get().map().map(m -> m.elementType()).orElse(TypeRef.none());
    }

    private GoType ofCode(String code, TypeRef ref) {
      if (code.startsWith("[]") && !code.equals("[]uint8")) {
        return new GoType(Kind.SLICE, code, ref, code.substring(2));
      }
      if (code.startsWith("map[")) {
        int depth = 0;
        int i = 3;
        for (; i < code.length(); i++) {
          char c = code.charAt(i);
          if (c == '[') {
            depth++;
          } else if (c == ']' && --depth == 0) {
            break;
          }
        }
        return new GoType(Kind.MAP, code, ref, code.substring(i + 1));
      }
      switch (code) {
        case "int32": return new GoType(Kind.INT32, code, ref, "");
        case "int64": return new GoType(Kind.INT64, code, ref, "");
        case "uint8": return new GoType(Kind.UINT8, code, ref, "");
        case "float32": return new GoType(Kind.FLOAT32, code, ref, "");
        case "float64": return new GoType(Kind.FLOAT64, code, ref, "");
        case "[]uint8": return new GoType(Kind.BYTES, code, ref, "");
        default:
          // a named type (v1.Protocol, v1.ResourceList, resource.Quantity): decoded as what
          // the schema says it is, named as Go names it
          GoType derived = of(ref);
          return new GoType(derived.kind(), code, ref, derived.code());
      }
    }

    /**
     * The Go type an SMD type reference stands for, cached.
     *
     * @param ref the type reference
     * @return the Go type
     */
    public GoType of(TypeRef ref) {
      GoType known = byRef.get(ref);
      if (known == null) {
        known = resolve(ref);
        byRef.put(ref, known);
      }
      return known;
    }

    private GoType resolve(TypeRef ref) {
      String name = ref.namedType().orElse("");
      switch (name) {
        case "io.k8s.apimachinery.pkg.util.intstr.IntOrString":
          return new GoType(Kind.INT_OR_STRING, "intstr.IntOrString", ref, "");
        case "io.k8s.apimachinery.pkg.api.resource.Quantity":
          return new GoType(Kind.QUANTITY, "resource.Quantity", ref, "");
        case META + "Time":
          return new GoType(Kind.TIME, "v1.Time", ref, "");
        case META + "MicroTime":
          return new GoType(Kind.MICRO_TIME, "v1.MicroTime", ref, "");
        default:
          break;
      }
      Optional<Atom> found = atom(ref);
      if (found.isEmpty()) {
        return new GoType(Kind.RAW, "interface {}", ref, "");
      }
      Atom a = found.get();
      if (a.scalar().isPresent() && a.list().isEmpty() && a.map().isEmpty()) {
        ScalarType s = a.scalar().get();
        if (s.equals(ScalarType.STRING)) {
          return new GoType(Kind.STRING, "string", ref, "");
        }
        if (s.equals(ScalarType.BOOLEAN)) {
          return new GoType(Kind.BOOL, "bool", ref, "");
        }
        if (s.equals(ScalarType.NUMERIC)) {
          return new GoType(Kind.INT64, "int64", ref, "");
        }
        return new GoType(Kind.RAW, goName(name, "interface {}"), ref, "");
      }
      if (a.scalar().isPresent()) {
        return new GoType(Kind.RAW, goName(name, "interface {}"), ref, "");
      }
      if (a.list().isPresent()) {
        return new GoType(Kind.SLICE, "[]" + of(a.list().get().elementType()).goName(), ref, "");
      }
      if (a.map().isPresent()) {
        if (!a.map().get().fields().isEmpty() || a.map().get().elementType().isNone()) {
          return new GoType(Kind.STRUCT, goName(name, "struct {}"), ref, "");
        }
        return new GoType(Kind.MAP, "map[string]" + of(a.map().get().elementType()).goName(),
            ref, "");
      }
      return new GoType(Kind.RAW, goName(name, "interface {}"), ref, "");
    }
  }

  /**
   * {@code io.k8s.api.apps.v1.DeploymentSpec} as Go prints it: {@code v1.DeploymentSpec}.
   *
   * @param openApiName the OpenAPI name
   * @param otherwise the name to use when it is not a dotted name
   * @return the Go name
   */
  public static String goName(String openApiName, String otherwise) {
    int last = openApiName.lastIndexOf('.');
    if (last < 0) {
      return otherwise;
    }
    int pkg = openApiName.lastIndexOf('.', last - 1);
    return openApiName.substring(pkg + 1);
  }

  /**
   * The Go struct's own name, as {@code UnmarshalTypeError.Struct}.
   *
   * @return e.g. {@code DeploymentSpec}
   */
  public String structName() {
    String name = ref.namedType().orElse("");
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
