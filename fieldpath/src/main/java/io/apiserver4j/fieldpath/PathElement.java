/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import io.apiserver4j.core.Value;
import java.util.List;

/**
 * One step of a {@link FieldPath}: a map or struct field ({@link FieldName}), an associative-list
 * item identified by its key fields ({@link Key}), a set item identified by its value
 * ({@link SetMember}), or a list item identified by position ({@link Index}).
 *
 * <p>Elements are totally ordered as structured-merge-diff orders them, which is also the order
 * of keys in FieldsV1: all field names (by Go byte order), then keys (field lists compared
 * pairwise by name, then value, shorter first), then set members (by SMD's value order), then
 * indices (numerically). Equality agrees with that order: in particular the integer 1 and the
 * float 1.0 are the same set member, as in SMD. Elements are immutable and thread-safe.
 */
public sealed interface PathElement extends Comparable<PathElement>
    permits FieldName, Key, SetMember, Index {

  /** The four kinds of element, in their sort order. */
  enum Kind {
    /** A {@link FieldName}. */
    FIELD_NAME,
    /** A {@link Key}. */
    KEY,
    /** A {@link SetMember}. */
    SET_MEMBER,
    /** An {@link Index}. */
    INDEX
  }

  /**
   * The kind of this element, which orders elements of different kinds.
   *
   * @return the kind matching the element's record type
   */
  Kind kind();

  /**
   * A field-name element ({@code .name}).
   *
   * @param name the field name
   * @return the element
   */
  static FieldName field(String name) {
    return new FieldName(name);
  }

  /**
   * A key element; the fields are sorted by name.
   *
   * @param fields the key fields, in any order
   * @return the element
   */
  static Key key(List<KeyField> fields) {
    return new Key(fields);
  }

  /**
   * A key element; the fields are sorted by name.
   *
   * @param fields the key fields, in any order
   * @return the element
   */
  static Key key(KeyField... fields) {
    return new Key(List.of(fields));
  }

  /**
   * A key with one field, the common case ({@code [name="nginx"]}).
   *
   * @param name the key field's name
   * @param value its value
   * @return the element
   */
  static Key key(String name, Value value) {
    return new Key(List.of(new KeyField(name, value)));
  }

  /**
   * A set-member element ({@code [="v"]}).
   *
   * @param value the member's value
   * @return the element
   */
  static SetMember value(Value value) {
    return new SetMember(value);
  }

  /**
   * A list-index element ({@code [3]}).
   *
   * @param index the position
   * @return the element
   */
  static Index index(long index) {
    return new Index(index);
  }

  @Override
  default int compareTo(PathElement other) {
    return Elements.compare(this, other);
  }

  /**
   * The element as it appears in a path string: {@code .name}, {@code [k="v",n=1]},
   * {@code [="v"]} or {@code [3]}.
   *
   * @return the path-string form, as structured-merge-diff prints it
   */
  String toPathString();
}
