/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

/**
 * The FieldsV1 spelling of single path elements: {@code f:name}, {@code k:{"name":"x"}},
 * {@code v:"x"}, {@code i:0}, as structured-merge-diff's {@code SerializePathElement} and
 * {@code DeserializePathElement} define them. Thread-safe.
 */
public final class PathElements {
  private PathElements() {}

  /**
   * Serializes {@code element}: field names raw after {@code f:}; key fields as compact JSON with
   * names sorted; values as compact JSON with map keys sorted; Go's escaping throughout.
   *
   * @param element the element
   * @return {@code f:name}, {@code k:{...}}, {@code v:...} or {@code i:3}
   */
  public static String serialize(PathElement element) {
    requireNonNull(element, "element");
    StringBuilder sb = new StringBuilder(32);
    Elements.appendSerialized(sb, element);
    return sb.toString();
  }

  /**
   * Parses one serialized element. JSON payloads may be surrounded by whitespace but nothing
   * else; {@code i:} takes Go {@code Atoi} syntax.
   *
   * @throws FieldsV1Exception when {@code text} is shorter than 2 characters ({@code key must be
   *     2 characters long:}), has no colon second ({@code missing colon: ...}), has an unknown
   *     type character ({@code unknown path element type}) or a malformed payload
   * @param text one FieldsV1 key, e.g. {@code f:spec}
   * @return the element
   */
  public static PathElement parse(String text) {
    requireNonNull(text, "text");
    try {
      return Elements.parse(text);
    } catch (Elements.UnknownElementType e) {
      throw new FieldsV1Exception("unknown path element type");
    }
  }
}
