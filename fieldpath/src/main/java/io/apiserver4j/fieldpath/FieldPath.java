/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An immutable sequence of {@link PathElement}s naming one field inside an object, such as
 * {@code .spec.containers[name="nginx"].image}. The empty path names the whole object.
 *
 * <p>Paths are ordered lexicographically by element, a prefix before its extensions (SMD's
 * {@code Path.Compare}). {@link #toString()} is the human-readable path string that
 * structured-merge-diff uses in conflict messages. Thread-safe.
 */
public final class FieldPath implements Comparable<FieldPath> {
  private static final FieldPath EMPTY = new FieldPath(new PathElement[0]);

  private final PathElement[] elements;
  private int hash;

  private FieldPath(PathElement[] elements) {
    this.elements = elements;
  }

  /** Wraps an array the caller hands over and never touches again. */
  static FieldPath wrap(PathElement[] elements) {
    return elements.length == 0 ? EMPTY : new FieldPath(elements);
  }

  /**
   * The path with no elements (the root).
   *
   * @return the shared empty path
   */
  public static FieldPath empty() {
    return EMPTY;
  }

  /**
   * A path of these elements, in order.
   *
   * @param elements the elements; the array is copied
   * @return the path
   * @throws NullPointerException when an element is null, naming its index
   */
  public static FieldPath of(PathElement... elements) {
    requireNonNull(elements, "elements");
    PathElement[] copy = elements.clone();
    for (int i = 0; i < copy.length; i++) {
      requireNonNull(copy[i], "elements[" + i + "]");
    }
    return wrap(copy);
  }

  /**
   * A path of these elements, in order.
   *
   * @param elements the elements; the list is copied
   * @return the path
   * @throws NullPointerException when an element is null, naming its index
   */
  public static FieldPath of(List<? extends PathElement> elements) {
    requireNonNull(elements, "elements");
    PathElement[] copy = elements.toArray(new PathElement[0]);
    for (int i = 0; i < copy.length; i++) {
      requireNonNull(copy[i], "elements[" + i + "]");
    }
    return wrap(copy);
  }

  /**
   * This path with {@code element} added at the end.
   *
   * @param element the element to append
   * @return a new path; this one is unchanged
   */
  public FieldPath append(PathElement element) {
    requireNonNull(element, "element");
    PathElement[] next = Arrays.copyOf(elements, elements.length + 1);
    next[elements.length] = element;
    return new FieldPath(next);
  }

  /**
   * This path followed by all elements of {@code suffix}.
   *
   * @param suffix the path to append
   * @return the concatenation; this path when {@code suffix} is empty
   */
  public FieldPath append(FieldPath suffix) {
    requireNonNull(suffix, "suffix");
    if (suffix.elements.length == 0) {
      return this;
    }
    if (elements.length == 0) {
      return suffix;
    }
    PathElement[] next = Arrays.copyOf(elements, elements.length + suffix.elements.length);
    System.arraycopy(suffix.elements, 0, next, elements.length, suffix.elements.length);
    return new FieldPath(next);
  }

  /**
   * The path without its last element.
   *
   * @return the parent; the empty path for the empty path
   */
  public FieldPath parent() {
    return elements.length <= 1 ? EMPTY : new FieldPath(Arrays.copyOf(elements, elements.length - 1));
  }

  /**
   * The last element, if any.
   *
   * @return the last element; empty for the empty path
   */
  public java.util.Optional<PathElement> last() {
    return elements.length == 0 ? java.util.Optional.empty()
        : java.util.Optional.of(elements[elements.length - 1]);
  }

  /**
   * The elements.
   *
   * @return the elements, as an unmodifiable list
   */
  public List<PathElement> elements() {
    return Collections.unmodifiableList(Arrays.asList(elements));
  }

  /**
   * The number of elements.
   *
   * @return the length of the path; 0 for the root
   */
  public int size() {
    return elements.length;
  }

  /**
   * The element at a position.
   *
   * @param i the position, from 0
   * @return the element
   * @throws IndexOutOfBoundsException when {@code i} is not below {@link #size()}
   */
  public PathElement get(int i) {
    return elements[i];
  }

  /**
   * Whether this is the root path.
   *
   * @return true when there are no elements
   */
  public boolean isEmpty() {
    return elements.length == 0;
  }

  /**
   * Whether this path begins with every element of {@code prefix}.
   *
   * @param prefix the candidate prefix
   * @return true when {@code prefix} is this path or an ancestor of it (the empty path always is)
   */
  public boolean startsWith(FieldPath prefix) {
    requireNonNull(prefix, "prefix");
    if (prefix.elements.length > elements.length) {
      return false;
    }
    for (int i = 0; i < prefix.elements.length; i++) {
      if (!elements[i].equals(prefix.elements[i])) {
        return false;
      }
    }
    return true;
  }

  PathElement[] array() {
    return elements;
  }

  @Override
  public int compareTo(FieldPath other) {
    PathElement[] a = elements;
    PathElement[] b = other.elements;
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int c = Elements.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldPath p && Arrays.equals(elements, p.elements);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(elements);
      hash = h;
    }
    return h;
  }

  /**
   * The human-readable path string, e.g. {@code .spec.containers[name="nginx"].image},
   * {@code .set[="b"]}, {@code .list[0]}; key values JSON-like (strings Go-quoted, numbers and
   * booleans bare). The empty path is the empty string.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(elements.length * 12);
    for (PathElement e : elements) {
      Elements.appendPathString(sb, e);
    }
    return sb.toString();
  }

  /**
   * The path as a list of serialized FieldsV1 elements ({@code ["f:spec", "k:{\"name\":\"x\"}"]}).
   *
   * @return each element as {@link PathElements#serialize} writes it, in order
   */
  public List<String> serializedElements() {
    String[] out = new String[elements.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = PathElements.serialize(elements[i]);
    }
    return List.of(out);
  }
}
