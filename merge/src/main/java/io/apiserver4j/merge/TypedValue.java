/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.Key;
import io.apiserver4j.fieldpath.KeyField;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.merge.internal.Comparer;
import io.apiserver4j.merge.internal.FieldSetWalker;
import io.apiserver4j.merge.internal.Merger;
import io.apiserver4j.merge.internal.NamedFields;
import io.apiserver4j.merge.internal.Reconciler;
import io.apiserver4j.merge.internal.Remover;
import io.apiserver4j.merge.internal.TypeNode;
import io.apiserver4j.merge.internal.Validator;
import java.util.List;
import java.util.Optional;

/**
 * A value together with its type (SMD's {@code TypedValue}): the operations of server-side apply
 * on one object. Values from {@link ParseableType#fromValue} are validated; results of
 * {@link #merge}, {@link #removeItems} and {@link #extractItems} are not re-validated, as in SMD.
 *
 * <p>Two typed values can be merged or compared only if they have the same type of the same
 * {@link Schema} instance. Immutable and thread-safe; operations never change their inputs and
 * share unchanged sub-trees between input and output.
 */
public final class TypedValue {
  private final Value value;
  private final Schema schema;
  private final TypeRef typeRef;
  private final TypeNode node;
  /** Whether the value passed strict validation (no duplicates), which lets merge skip work. */
  private final boolean strictlyValid;

  TypedValue(Value value, Schema schema, TypeRef typeRef, TypeNode node, boolean strictlyValid) {
    this.value = value;
    this.schema = schema;
    this.typeRef = typeRef;
    this.node = node;
    this.strictlyValid = strictlyValid;
  }

  /**
   * The untyped value.
   *
   * @return the value
   */
  public Value value() {
    return value;
  }

  /**
   * The schema the value is typed with.
   *
   * @return the schema
   */
  public Schema schema() {
    return schema;
  }

  /**
   * The reference to the value's type in {@link #schema()}.
   *
   * @return the reference
   */
  public TypeRef typeRef() {
    return typeRef;
  }

  /**
   * The type of this value.
   *
   * @return the schema and reference as one type
   */
  public ParseableType type() {
    return new ParseableType(schema, typeRef);
  }

  /**
   * The same type with another value, not validated.
   *
   * @param newValue a value known to fit the type
   * @return the typed value
   */
  public TypedValue withValue(Value newValue) {
    requireNonNull(newValue, "newValue");
    return newValue == value ? this : new TypedValue(newValue, schema, typeRef, node, false);
  }

  /**
   * The null value of this type.
   *
   * @return the typed null
   */
  public TypedValue empty() {
    return withValue(Value.nullValue());
  }

  /**
   * Every violation of the schema.
   *
   * @param duplicates whether duplicate set or associative-list items are accepted
   * @return the errors, empty when valid
   */
  public List<ValidationError> validate(Duplicates duplicates) {
    requireNonNull(duplicates, "duplicates");
    return Validator.validate(node, value, duplicates == Duplicates.ALLOW);
  }

  /**
   * The set of every leaf field and item this value sets (SMD's {@code ToFieldSet}).
   *
   * @throws ValidationException if the value does not fit its type
   * @return the field set
   */
  public FieldSet toFieldSet() {
    Object r = FieldSetWalker.toFieldSet(node, value);
    if (r instanceof FieldSet s) {
      return s;
    }
    throw new ValidationException(FieldSetWalker.errorsOf(r));
  }

  /**
   * What changed from this value to {@code rhs}.
   *
   * @throws IllegalArgumentException if the types differ
   * @throws ValidationException if either value does not fit the type
   * @param rhs the value after the change
   * @return the added, modified and removed fields
   */
  public Comparison compare(TypedValue rhs) {
    requireNonNull(rhs, "rhs");
    checkSameType(rhs);
    return compareWithEquality(rhs).comparison();
  }

  /** {@link #compare} that also tells whether the values are equal (for the updater). */
  Comparer.Result compareWithEquality(TypedValue rhs) {
    checkSameType(rhs);
    Object r = Comparer.compare(node, value, rhs.value);
    if (r instanceof Comparer.Result c) {
      return c;
    }
    throw new ValidationException(Comparer.errorsOf(r));
  }

  /**
   * This value with {@code pso} (a partially specified object) merged on top: no field is
   * removed, leaves take {@code pso}'s value, granular maps and associative lists are merged item
   * by item (list order as SMD computes it).
   *
   * @throws IllegalArgumentException if the types differ
   * @throws ValidationException if the values do not fit the type or {@code pso} has duplicate items
   * @param pso the partially specified object
   * @return the merged value
   */
  public TypedValue merge(TypedValue pso) {
    requireNonNull(pso, "pso");
    checkSameType(pso);
    Object r = Merger.merge(node, value, pso.value, pso.strictlyValid);
    if (r instanceof Value v) {
      return withValue(v);
    }
    throw new ValidationException(Merger.errorsOf(r));
  }

  /**
   * This value without the fields and items of {@code items} (and everything below them).
   *
   * @param items the fields and items to remove
   * @return the reduced value
   */
  public TypedValue removeItems(FieldSet items) {
    requireNonNull(items, "items");
    return withValue(Remover.remove(node, value, items));
  }

  /**
   * Only the fields and items of {@code items} of this value (and everything below them).
   *
   * @param items the fields and items to keep
   * @return the extracted value
   */
  public TypedValue extractItems(FieldSet items) {
    return extractItems(items, KeyFields.OMIT);
  }

  /**
   * Only the fields and items of {@code items}; with {@link KeyFields#INCLUDE}, also the key fields
   * of every associative-list item on the way to an extracted path that this value has.
   *
   * @param items the fields and items to keep
   * @param keyFields whether key fields on the way are kept
   * @return the extracted value
   */
  public TypedValue extractItems(FieldSet items, KeyFields keyFields) {
    requireNonNull(items, "items");
    requireNonNull(keyFields, "keyFields");
    FieldSet set = items;
    if (keyFields == KeyFields.INCLUDE) {
      Object r = FieldSetWalker.toFieldSet(node, value);
      if (r instanceof FieldSet present) {
        FieldSet.Builder keys = FieldSet.builder();
        for (FieldPath path : items) {
          if (!present.contains(path)) {
            continue;
          }
          for (int i = 0; i < path.size(); i++) {
            if (path.get(i) instanceof Key k) {
              List<PathElement> prefix = path.elements().subList(0, i + 1);
              for (KeyField f : k.fields()) {
                keys.insert(FieldPath.of(prefix).append(new FieldName(f.name())));
              }
            }
          }
        }
        set = set.union(keys.build());
      }
    }
    return withValue(Remover.extract(node, value, set));
  }

  /**
   * Corrects {@code managed} (fields someone owns in this value) after a schema change: where a
   * granular list or map has become atomic, ownership of its contents becomes ownership of the
   * container. Empty when no change is needed (SMD's {@code ReconcileFieldSetWithSchema}).
   *
   * @throws IllegalArgumentException if a type on the way cannot be resolved
   * @param managed the fields someone owns in this value
   * @return the corrected set; empty when {@code managed} needs no change
   */
  public Optional<FieldSet> reconcileFieldSetWithSchema(FieldSet managed) {
    requireNonNull(managed, "managed");
    return Optional.ofNullable(Reconciler.reconcile(node, managed));
  }

  /**
   * {@code set} plus every declared struct field that appears in it only as the parent of other
   * paths (SMD's {@code EnsureNamedFieldsAreMembers}, with this value's type).
   *
   * @param set the field set
   * @return the completed set
   */
  public FieldSet ensureNamedFieldsAreMembers(FieldSet set) {
    requireNonNull(set, "set");
    return NamedFields.ensureMembers(node, set);
  }

  private void checkSameType(TypedValue other) {
    if (other.schema != schema) {
      throw new IllegalArgumentException("expected objects with types from the same schema");
    }
    if (!other.typeRef.equals(typeRef)) {
      throw new IllegalArgumentException(
          "expected objects of the same type, but got " + typeRef + " and " + other.typeRef);
    }
  }

  /** Equal when value, type reference and schema instance are the same. */
  @Override
  public boolean equals(Object o) {
    return o instanceof TypedValue t
        && t.schema == schema
        && t.typeRef.equals(typeRef)
        && t.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode() * 31 + typeRef.hashCode();
  }

  @Override
  public String toString() {
    return "TypedValue{" + typeRef + ": " + value + "}";
  }

  TypeNode node() {
    return node;
  }
}
