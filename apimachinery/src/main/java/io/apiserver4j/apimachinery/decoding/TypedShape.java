/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Atom;
import io.apiserver4j.merge.MapType;
import io.apiserver4j.merge.Schema;
import io.apiserver4j.merge.StructField;
import io.apiserver4j.merge.TypeRef;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an object of a built-in kind looks like after kube-apiserver decoded it into its Go
 * structs and encoded it again: fields that Go always writes are present even when the client
 * left them out (non-pointer structs as {@code {}}, {@code metav1.Time} as {@code null}, fields
 * without {@code omitempty} as {@code ""}, {@code 0} or {@code null}), and a {@code null} struct
 * is an empty one. This matters beyond cosmetics: kube-apiserver's managed-fields manager and
 * every response see objects in this shape. The zero values are generated
 * ({@code io.apiserver4j.kubeapi.KubeSchema#zeros}). Idempotent and thread-safe.
 */
public final class TypedShape {
  private final Schema schema;
  private final Map<String, Map<String, Value>> zeros;
  private final ConcurrentHashMap<TypeRef, Node> nodes = new ConcurrentHashMap<>();

  /**
   * Shapes over a schema and the Go zero values of its struct fields.
   *
   * @param schema the SMD schema
   * @param zeros by type name, the zero value of each field Go always writes
   */
  public TypedShape(Schema schema, Map<String, Map<String, Value>> zeros) {
    this.schema = schema;
    this.zeros = zeros;
  }

  /**
   * {@code object} in the shape of type {@code typeName}.
   *
   * @param typeName the OpenAPI type name
   * @param object the object
   * @return the normalized object
   */
  public MapValue normalize(String typeName, MapValue object) {
    Value out = walk(object, node(TypeRef.named(typeName)));
    return out instanceof MapValue m ? m : object;
  }

  private Node node(TypeRef ref) {
    // a plain read first: computeIfAbsent locks the bin even when the type is cached
    Node n = nodes.get(ref);
    return n != null ? n : nodes.computeIfAbsent(ref, r -> new Node(this, r));
  }

  /**
   * A type resolved once, with the nodes of its fields and elements found on first use: every
   * object of a kind walks the same types, and resolving them again for each value (the schema's
   * lookups, their {@code Optional}s and lambdas) is most of a walk's cost in a fresh JVM.
   */
  private static final class Node {
    /** The child of a field no type declares: its value is left as it is. */
    private static final Node NONE = new Node();

    private final TypedShape shape;
    private final boolean resolved;
    private final MapType map;
    private final Map<String, Value> zeros;
    private final TypeRef listElement;
    private final ConcurrentHashMap<String, Node> fields;
    private volatile Node element;
    private volatile Node undeclared;
    private volatile Value shapedEmpty;

    private Node() {
      this.shape = null;
      this.resolved = false;
      this.map = null;
      this.zeros = null;
      this.listElement = null;
      this.fields = null;
    }

    Node(TypedShape shape, TypeRef ref) {
      this.shape = shape;
      Optional<Atom> atom = shape.schema.resolve(ref);
      this.resolved = atom.isPresent();
      this.map = atom.flatMap(Atom::map).orElse(null);
      this.zeros = ref.namedType().map(shape.zeros::get).orElse(null);
      this.listElement = atom.flatMap(Atom::list).map(l -> l.elementType()).orElse(null);
      this.fields = map == null || map.fields().isEmpty() ? null : new ConcurrentHashMap<>();
    }

    /**
     * The node of a map's value at {@code key}: its field's type, else the map's element type.
     * Only declared fields are remembered by name, so maps of data (labels, a ConfigMap's keys)
     * add nothing per key.
     */
    Node child(String key) {
      Node n = fields == null ? null : fields.get(key);
      if (n != null) {
        return n;
      }
      n = field(key);
      if (n != null) {
        fields.putIfAbsent(key, n);
        return n;
      }
      n = undeclared;
      if (n == null) {
        n = map.elementType().isNone() ? NONE : shape.node(map.elementType());
        undeclared = n;
      }
      return n;
    }

    /** The node of a declared field; null when {@code key} is not one. */
    Node field(String key) {
      Optional<StructField> f = map.findField(key);
      return f.isEmpty() ? null : shape.node(f.get().type());
    }

    Node element() {
      Node n = element;
      if (n == null) {
        n = shape.node(listElement);
        element = n;
      }
      return n;
    }

    /** An empty map in this type's shape; the same value every time, built on first use. */
    Value shapedEmpty() {
      Value v = shapedEmpty;
      if (v == null) {
        v = shape.walk(MapValue.empty(), this);
        shapedEmpty = v;
      }
      return v;
    }
  }

  private Value walk(Value v, Node node) {
    if (!node.resolved) {
      return v;
    }
    if (v instanceof MapValue m && node.map != null) {
      return walkMap(m, node);
    }
    if (v instanceof ListValue l && node.listElement != null) {
      Node element = node.element();
      ListValue.Builder b = null;
      for (int i = 0; i < l.size(); i++) {
        Value item = l.get(i);
        Value shaped = walk(item, element);
        if (shaped != item && b == null) {
          b = ListValue.builder(l.size());
          for (int j = 0; j < i; j++) {
            b.add(l.get(j));
          }
        }
        if (b != null) {
          b.add(shaped);
        }
      }
      return b == null ? l : b.build();
    }
    return v;
  }

  private Value walkMap(MapValue m, Node node) {
    Map<String, Value> typeZeros = node.zeros;
    MapValue out = m;
    for (int i = 0; i < m.size(); i++) {
      String key = m.keyAt(i);
      Value value = m.valueAt(i);
      Node child = node.child(key);
      if (child == Node.NONE) {
        continue;
      }
      Value shaped;
      Value zero = typeZeros == null ? null : typeZeros.get(key);
      if (value.isNull() && zero != null) {
        shaped = zero instanceof MapValue ? child.shapedEmpty() : zero;
      } else {
        shaped = walk(value, child);
      }
      if (shaped != value) {
        out = out.with(key, shaped);
      }
    }
    if (typeZeros != null) {
      for (Map.Entry<String, Value> z : typeZeros.entrySet()) {
        if (out.containsKey(z.getKey())) {
          continue;
        }
        Value zero = z.getValue();
        if (zero instanceof MapValue) {
          Node field = node.field(z.getKey());
          zero = field == null ? zero : field.shapedEmpty();
        }
        out = out.with(z.getKey(), zero);
      }
    }
    return out;
  }
}
