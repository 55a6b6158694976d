/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.labels;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A Kubernetes label selector: a conjunction of requirements on {@code metadata.labels}.
 *
 * <p>{@link #parse} accepts kube's string syntax ({@code a=b}, {@code a==b}, {@code a!=b},
 * {@code a in (x,y)}, {@code a notin (x)}, {@code a}, {@code !a}, {@code a>1}, {@code a<1},
 * comma = AND) with apimachinery's validation and error messages. Matching follows
 * {@code labels.Requirement.Matches}: {@code !=} and {@code notin} match objects without the label.
 * Immutable and thread-safe.
 */
public final class LabelSelector {
  /** Requirement operators, as apimachinery's {@code selection.Operator}. */
  public enum Operator {
    /** {@code key=value}. */
    EQUALS("="),
    /** {@code key==value}. */
    DOUBLE_EQUALS("=="),
    /** {@code key!=value}; also matches objects without the label. */
    NOT_EQUALS("!="),
    /** {@code key in (a,b)}. */
    IN(" in "),
    /** {@code key notin (a,b)}; also matches objects without the label. */
    NOT_IN(" notin "),
    /** {@code key}: the label is present. */
    EXISTS(""),
    /** {@code !key}: the label is absent. */
    DOES_NOT_EXIST(""),
    /** {@code key>n}: an integer label greater than {@code n}. */
    GREATER_THAN(">"),
    /** {@code key<n}: an integer label less than {@code n}. */
    LESS_THAN("<");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }
  }

  /**
   * One requirement. {@code values} are sorted and unique.
   *
   * @param key the label key
   * @param operator the operator
   * @param values the values (one for equality and comparisons, none for (non-)existence)
   */
  public record Requirement(String key, Operator operator, List<String> values) {
    /**
     * Checks the key and operator and sorts the values, dropping duplicates.
     *
     * @param key see the record component
     * @param operator see the record component
     * @param values see the record component
     * @throws NullPointerException when a component is null
     */
    public Requirement {
      requireNonNull(key, "key");
      requireNonNull(operator, "operator");
      values = List.copyOf(new TreeSet<>(values));
    }

    /**
     * Whether the labels satisfy this requirement.
     *
     * @param labels the object's labels
     * @return true when satisfied
     */
    public boolean matches(Map<String, String> labels) {
      return matchesValue(labels.get(key));
    }

    boolean matchesValue(String value) {
      switch (operator) {
        case EQUALS:
        case DOUBLE_EQUALS:
        case IN:
          return value != null && values.contains(value);
        case NOT_EQUALS:
        case NOT_IN:
          return value == null || !values.contains(value);
        case EXISTS:
          return value != null;
        case DOES_NOT_EXIST:
          return value == null;
        case GREATER_THAN:
        case LESS_THAN:
          if (value == null || values.size() != 1) {
            return false;
          }
          Long actual = parseGoInt(value);
          Long bound = parseGoInt(values.get(0));
          if (actual == null || bound == null) {
            return false;
          }
          return operator == Operator.GREATER_THAN ? actual > bound : actual < bound;
        default:
          throw new AssertionError(operator);
      }
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      if (operator == Operator.DOES_NOT_EXIST) {
        b.append('!');
      }
      b.append(key);
      if (operator == Operator.EXISTS || operator == Operator.DOES_NOT_EXIST) {
        return b.toString();
      }
      b.append(operator.symbol);
      boolean parens = operator == Operator.IN || operator == Operator.NOT_IN;
      if (parens) {
        b.append('(');
      }
      b.append(String.join(",", values));
      if (parens) {
        b.append(')');
      }
      return b.toString();
    }
  }

  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = requirements;
  }

  /**
   * The selector that matches every object.
   *
   * @return the selector without requirements
   */
  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /**
   * Parses kube's label selector syntax. An empty or blank string selects everything.
   *
   * @throws io.apiserver4j.core.errors.BadRequestException with apimachinery's parse error text
   * @param selector the {@code labelSelector} query value
   * @return the selector
   */
  public static LabelSelector parse(String selector) {
    requireNonNull(selector, "selector");
    List<Requirement> reqs = new LabelSelectorParser(selector).parse();
    if (reqs.isEmpty()) {
      return EVERYTHING;
    }
    return new LabelSelector(sortedByKey(reqs));
  }

  /**
   * A selector from already validated requirements (programmatic construction).
   *
   * @param requirements the requirements, all of which must hold
   * @return the selector
   */
  public static LabelSelector of(List<Requirement> requirements) {
    List<Requirement> copy = List.copyOf(requirements);
    return copy.isEmpty() ? EVERYTHING : new LabelSelector(sortedByKey(copy));
  }

  /**
   * {@code key=value} for each entry, as {@code labels.SelectorFromSet}.
   *
   * @param labels the required labels
   * @return the selector
   */
  public static LabelSelector ofEquals(Map<String, String> labels) {
    List<Requirement> reqs = new ArrayList<>();
    labels.forEach((k, v) -> reqs.add(new Requirement(k, Operator.EQUALS, List.of(v))));
    return of(reqs);
  }

  private static List<Requirement> sortedByKey(List<Requirement> reqs) {
    List<Requirement> sorted = new ArrayList<>(reqs);
    // stable, like Go's sort by key for requirements parsed in order
    sorted.sort(Comparator.comparing(Requirement::key, io.apiserver4j.core.Values::compareStrings));
    return List.copyOf(sorted);
  }

  /**
   * The requirements, all of which must hold.
   *
   * @return the requirements
   */
  public List<Requirement> requirements() {
    return requirements;
  }

  /**
   * Whether the selector has no requirements.
   *
   * @return true when it matches every object
   */
  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /**
   * Whether the labels satisfy every requirement.
   *
   * @param labels the labels
   * @return true when they match
   */
  public boolean matches(Map<String, String> labels) {
    requireNonNull(labels, "labels");
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the object's {@code metadata.labels} satisfy every requirement.
   *
   * @param object the object
   * @return true when they match
   */
  public boolean matches(MapValue object) {
    requireNonNull(object, "object");
    if (requirements.isEmpty()) {
      return true;
    }
    MapValue labels = labelsOf(object);
    for (Requirement r : requirements) {
      Value v = labels.getOrNull(r.key());
      String s = v instanceof StringValue sv ? sv.value() : null;
      if (!r.matchesValue(s)) {
        return false;
      }
    }
    return true;
  }

  private static MapValue labelsOf(MapValue object) {
    if (object.getOrNull("metadata") instanceof MapValue meta
        && meta.getOrNull("labels") instanceof MapValue labels) {
      return labels;
    }
    return MapValue.empty();
  }

  static Long parseGoInt(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The canonical string form, as apimachinery prints a parsed selector. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Requirement r : requirements) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(r);
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LabelSelector other && requirements.equals(other.requirements);
  }

  @Override
  public int hashCode() {
    return requirements.hashCode();
  }
}
