/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.fields;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A Kubernetes field selector: a conjunction of {@code field=value} / {@code field!=value}
 * terms, parsed with apimachinery's rules ({@code ==} is {@code =}; {@code \,}, {@code \=} and
 * {@code \\} escape values; terms are sorted).
 *
 * <p>A field is a dotted path into the object ({@code metadata.name}, {@code status.phase}); its
 * value is compared as a string: strings as they are, numbers and booleans as Go prints them,
 * and a missing or null field as the empty string (so {@code f=} matches objects without
 * {@code f}, and {@code f!=x} matches them too). kube-apiserver only allows a fixed set of fields
 * per resource; a caller that restricts them checks with {@link #requireSupported}.
 * Immutable and thread-safe.
 */
public final class FieldSelector {
  /**
   * One term.
   *
   * @param field the dotted field path
   * @param negated {@code true} for {@code !=}
   * @param value the unescaped value
   */
  public record Term(String field, boolean negated, String value) {
    /**
     * Checks that no component is null.
     *
     * @param field see the record component
     * @param negated see the record component
     * @param value see the record component
     * @throws NullPointerException when a component is null
     */
    public Term {
      requireNonNull(field, "field");
      requireNonNull(value, "value");
    }

    /**
     * Whether the object satisfies this term.
     *
     * @param object the object
     * @return true when the field's string value equals {@code value}, or differs for {@code !=}
     */
    public boolean matches(MapValue object) {
      return value.equals(fieldValue(object, field)) != negated;
    }

    @Override
    public String toString() {
      return field + (negated ? "!=" : "=") + escapeValue(value);
    }
  }

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = terms;
  }

  /**
   * The selector without terms.
   *
   * @return the selector that matches every object
   */
  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /**
   * {@code field=value}.
   *
   * @param field the dotted field path, e.g. {@code metadata.name}
   * @param value the required value
   * @return the one-term selector
   */
  public static FieldSelector equal(String field, String value) {
    return new FieldSelector(List.of(new Term(field, false, value)));
  }

  /**
   * {@code field!=value}.
   *
   * @param field the dotted field path, e.g. {@code metadata.name}
   * @param value the excluded value
   * @return the one-term selector
   */
  public static FieldSelector notEqual(String field, String value) {
    return new FieldSelector(List.of(new Term(field, true, value)));
  }

  /**
   * Parses kube's field selector syntax. An empty string selects everything.
   *
   * @throws io.apiserver4j.core.errors.BadRequestException with apimachinery's error text
   * @param selector the {@code fieldSelector} query value
   * @return the selector
   */
  public static FieldSelector parse(String selector) {
    requireNonNull(selector, "selector");
    if (selector.isEmpty()) {
      return EVERYTHING;
    }
    List<String> parts = splitTerms(selector);
    Collections.sort(parts, io.apiserver4j.core.Values::compareStrings);
    List<Term> terms = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty()) {
        continue;
      }
      Term t = parseTerm(selector, part);
      terms.add(t);
    }
    return terms.isEmpty() ? EVERYTHING : new FieldSelector(List.copyOf(terms));
  }

  private static List<String> splitTerms(String s) {
    List<String> out = new ArrayList<>();
    int start = 0;
    boolean inSlash = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inSlash) {
        inSlash = false;
      } else if (c == '\\') {
        inSlash = true;
      } else if (c == ',') {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }

  private static Term parseTerm(String selector, String term) {
    for (int i = 0; i < term.length(); i++) {
      if (term.startsWith("!=", i)) {
        return new Term(term.substring(0, i), true, unescape(term.substring(i + 2)));
      }
      if (term.startsWith("==", i)) {
        return new Term(term.substring(0, i), false, unescape(term.substring(i + 2)));
      }
      if (term.charAt(i) == '=') {
        return new Term(term.substring(0, i), false, unescape(term.substring(i + 1)));
      }
    }
    throw StatusErrors.badRequest(
        "invalid selector: '" + selector + "'; can't understand '" + term + "'");
  }

  private static String unescape(String s) {
    if (s.indexOf('\\') < 0 && s.indexOf(',') < 0 && s.indexOf('=') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    boolean inSlash = false;
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (inSlash) {
        if (c == '\\' || c == ',' || c == '=') {
          b.appendCodePoint(c);
        } else {
          throw StatusErrors.badRequest("invalid field selector: invalid escape sequence: \\"
              + new String(Character.toChars(c)));
        }
        inSlash = false;
        continue;
      }
      if (c == '\\') {
        inSlash = true;
      } else if (c == ',' || c == '=') {
        // Go prints the rune with %v, i.e. as its number
        throw StatusErrors.badRequest(
            "invalid field selector: unescaped character in value: " + c);
      } else {
        b.appendCodePoint(c);
      }
    }
    if (inSlash) {
      throw StatusErrors.badRequest("invalid field selector: invalid escape sequence: \\");
    }
    return b.toString();
  }

  static String escapeValue(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' || c == ',' || c == '=') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /**
   * The terms, all of which must hold.
   *
   * @return the terms in the order given
   */
  public List<Term> terms() {
    return terms;
  }

  /**
   * Whether the selector has no terms.
   *
   * @return true when it matches every object
   */
  public boolean isEverything() {
    return terms.isEmpty();
  }

  /**
   * The fields the selector refers to, in term order.
   *
   * @return the field paths, without duplicates
   */
  public Set<String> fields() {
    Set<String> out = new LinkedHashSet<>();
    for (Term t : terms) {
      out.add(t.field());
    }
    return out;
  }

  /**
   * The conjunction of both selectors.
   *
   * @param other the other selector
   * @return the selector whose terms are both selectors' terms
   */
  public FieldSelector and(FieldSelector other) {
    requireNonNull(other, "other");
    if (other.terms.isEmpty()) {
      return this;
    }
    if (terms.isEmpty()) {
      return other;
    }
    List<Term> all = new ArrayList<>(terms);
    all.addAll(other.terms);
    return new FieldSelector(List.copyOf(all));
  }

  /**
   * Rejects fields outside {@code supported}, as kube-apiserver does for resources with a fixed
   * field set.
   *
   * @throws io.apiserver4j.core.errors.BadRequestException {@code field label not supported: <f>}
   * @param supported the fields the resource supports
   * @return this selector
   */
  public FieldSelector requireSupported(Collection<String> supported) {
    requireNonNull(supported, "supported");
    for (Term t : terms) {
      if (!supported.contains(t.field())) {
        throw StatusErrors.badRequest("field label not supported: " + t.field());
      }
    }
    return this;
  }

  /**
   * The value a {@code field=x} term requires, as {@code metadata.name=x} does.
   *
   * @param field the dotted field path, e.g. {@code metadata.name}
   * @return the value; empty when no equality term names the field
   */
  public java.util.Optional<String> requiredValue(String field) {
    for (Term t : terms) {
      if (!t.negated() && t.field().equals(field)) {
        return java.util.Optional.of(t.value());
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * Whether the object satisfies every term.
   *
   * @param object the object
   * @return true when it matches
   */
  public boolean matches(MapValue object) {
    requireNonNull(object, "object");
    for (Term t : terms) {
      if (!t.matches(object)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The string value of a dotted field path in {@code object}.
   *
   * @param object the object
   * @param field the dotted field path, e.g. {@code metadata.name}
   * @return the value as the selector compares it; empty if absent
   */
  public static String fieldValue(MapValue object, String field) {
    Value v = object;
    int start = 0;
    while (true) {
      int dot = field.indexOf('.', start);
      String segment = dot < 0 ? field.substring(start) : field.substring(start, dot);
      if (!(v instanceof MapValue m)) {
        return "";
      }
      v = m.getOrNull(segment);
      if (v == null) {
        return "";
      }
      if (dot < 0) {
        break;
      }
      start = dot + 1;
    }
    if (v instanceof StringValue s) {
      return s.value();
    } else if (v instanceof IntegerValue i) {
      return Long.toString(i.value());
    } else if (v instanceof BooleanValue b) {
      return Boolean.toString(b.value());
    } else if (v instanceof FloatValue f) {
      return Json.formatFloat(f.value());
    } else if (v instanceof NullValue) {
      return "";
    }
    return Json.write(v);
  }

  /** The canonical string form, as apimachinery prints it. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Term t : terms) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(t);
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSelector other && terms.equals(other.terms);
  }

  @Override
  public int hashCode() {
    return terms.hashCode();
  }
}
