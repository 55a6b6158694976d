/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * kube's {@code corev1.ResourceList} arithmetic ({@code k8s.io/apiserver/pkg/quota/v1/resources.go})
 * over maps from resource name to {@link Quantity}, sorted by name. Every method returns a new,
 * unmodifiable map and leaves its arguments alone. A sum keeps the format of its first non-zero
 * operand, as {@code resource.Quantity.Add} does, so {@code 1Gi + 1Gi} prints as {@code 2Gi}.
 */
public final class ResourceLists {
  private static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Quantity.DECIMAL_SI);

  private ResourceLists() {}

  /** {@return the zero quantity kube's {@code resource.Quantity{Format: DecimalSI}} is} */
  public static Quantity zero() {
    return ZERO;
  }

  /**
   * The whole number {@code n} as {@code resource.NewQuantity(n, DecimalSI)}.
   *
   * @param n the value
   * @return the quantity
   */
  public static Quantity of(long n) {
    return new Quantity(BigDecimal.valueOf(n), Quantity.DECIMAL_SI);
  }

  /**
   * The quantity a JSON value holds (a string, or a number as the decoder keeps it).
   *
   * @param v the value
   * @return the quantity, or empty when it is none
   */
  public static Optional<Quantity> quantity(Value v) {
    if (v instanceof StringValue s) {
      return Quantity.parse(s.value());
    }
    if (v instanceof IntegerValue i) {
      return Quantity.parse(Long.toString(i.value()));
    }
    return v == null ? Optional.empty() : Quantity.parse(v.toString());
  }

  /**
   * The resource list a {@code ResourceList} field holds; entries that are not quantities are
   * left out (validation refuses them before they are stored).
   *
   * @param list the field's value (absent: empty)
   * @return the list
   */
  public static SortedMap<String, Quantity> fromValue(Value list) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    if (list instanceof MapValue m) {
      m.forEach((k, v) -> quantity(v).ifPresent(q -> out.put(k, q)));
    }
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * The list as kube serializes it: each quantity in its canonical form.
   *
   * @param list the list
   * @return a map of strings
   */
  public static MapValue toValue(Map<String, Quantity> list) {
    MapValue.Builder b = MapValue.builder();
    new TreeMap<>(list).forEach((k, q) -> b.put(k, Value.of(q.toString())));
    return b.build();
  }

  /**
   * {@code q + y} with {@code resource.Quantity.Add}'s format rule: the result keeps {@code q}'s
   * format unless {@code q} is zero.
   *
   * @param q the first operand
   * @param y the second
   * @return the sum
   */
  public static Quantity plus(Quantity q, Quantity y) {
    char format = q.value().signum() == 0 ? y.format() : q.format();
    return new Quantity(q.value().add(y.value()).stripTrailingZeros(), format);
  }

  /**
   * {@code q - y} with {@code resource.Quantity.Sub}'s format rule.
   *
   * @param q the minuend
   * @param y the subtrahend
   * @return the difference
   */
  public static Quantity minus(Quantity q, Quantity y) {
    char format = q.value().signum() == 0 ? y.format() : q.format();
    return new Quantity(q.value().subtract(y.value()).stripTrailingZeros(), format);
  }

  /**
   * kube's {@code quota.Add}: every resource of either list, summed where both have it.
   *
   * @param a a list
   * @param b another
   * @return the sum
   */
  public static SortedMap<String, Quantity> add(Map<String, Quantity> a, Map<String, Quantity> b) {
    SortedMap<String, Quantity> out = new TreeMap<>(a);
    b.forEach((k, v) -> out.merge(k, v, ResourceLists::plus));
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * kube's {@code quota.SubtractWithNonNegativeResult}: {@code a - b} per resource, never below
   * zero; resources only {@code b} has are zero.
   *
   * @param a the minuend
   * @param b the subtrahend
   * @return the difference
   */
  public static SortedMap<String, Quantity> subtractNonNegative(Map<String, Quantity> a,
      Map<String, Quantity> b) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    a.forEach((k, v) -> {
      Quantity d = b.containsKey(k) ? minus(v, b.get(k)) : v;
      out.put(k, d.value().signum() > 0 ? d : ZERO);
    });
    b.keySet().forEach(k -> out.putIfAbsent(k, ZERO));
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * kube's {@code quota.Mask}: the entries of {@code list} whose names are in {@code names}.
   *
   * @param list the list
   * @param names the names kept
   * @return the masked list
   */
  public static SortedMap<String, Quantity> mask(Map<String, Quantity> list,
      Collection<String> names) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    list.forEach((k, v) -> {
      if (names.contains(k)) {
        out.put(k, v);
      }
    });
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * kube's {@code quota.RemoveZeros}.
   *
   * @param list the list
   * @return the list without its zero entries
   */
  public static SortedMap<String, Quantity> removeZeros(Map<String, Quantity> list) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    list.forEach((k, v) -> {
      if (v.value().signum() != 0) {
        out.put(k, v);
      }
    });
    return Collections.unmodifiableSortedMap(out);
  }

  /**
   * kube's {@code quota.IsNegative}.
   *
   * @param list the list
   * @return the names of the negative entries, sorted
   */
  public static List<String> negative(Map<String, Quantity> list) {
    List<String> out = new ArrayList<>();
    new TreeMap<>(list).forEach((k, v) -> {
      if (v.isNegative()) {
        out.add(k);
      }
    });
    return out;
  }

  /**
   * kube's {@code quota.LessThanOrEqual}: the resources of {@code limits} that {@code a} has
   * more of.
   *
   * @param a the usage
   * @param limits the limits
   * @return the names exceeded, sorted; empty when {@code a} fits
   */
  public static List<String> exceeded(Map<String, Quantity> a, Map<String, Quantity> limits) {
    List<String> out = new ArrayList<>();
    new TreeMap<>(limits).forEach((k, v) -> {
      Quantity used = a.get(k);
      if (used != null && used.compareTo(v) > 0) {
        out.add(k);
      }
    });
    return out;
  }

  /**
   * kube's {@code quota.Equals}: the same names with equal values (formats aside).
   *
   * @param a a list
   * @param b another
   * @return whether they are equal
   */
  public static boolean equal(Map<String, Quantity> a, Map<String, Quantity> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, Quantity> e : a.entrySet()) {
      Quantity o = b.get(e.getKey());
      if (o == null || o.compareTo(e.getValue()) != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The quota admission plugin's {@code prettyPrint}: {@code name=value} sorted by name, joined
   * by commas, each value canonical.
   *
   * @param list the list
   * @return the text
   */
  public static String prettyPrint(Map<String, Quantity> list) {
    List<String> parts = new ArrayList<>();
    new TreeMap<>(list).forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(",", parts);
  }
}
