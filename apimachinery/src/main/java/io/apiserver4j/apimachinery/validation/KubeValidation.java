/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Validation helpers that kube's {@code pkg/apis/core/validation}, {@code apimachinery
 * util/validation} and {@code apis/meta/v1/validation} share between kinds (label selectors,
 * ports, ranges, quantities, immutable fields), with kube's field paths and messages. Each adds
 * its errors to a list so that callers can keep kube's error order. Stateless.
 */
public final class KubeValidation {
  /**
   * kube's message for a changed immutable field.
   */
  public static final String IMMUTABLE = "field is immutable";
  /**
   * kube's message for a negative value.
   */
  public static final String NON_NEGATIVE = "must be greater than or equal to 0";
  /**
   * kube's message for a port out of range.
   */
  public static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

  private static final Pattern IANA_SVC_NAME_ALNUM = Pattern.compile("^[-a-z0-9]+$");
  private static final Pattern IANA_SVC_NAME_LETTER = Pattern.compile("[a-z]");

  private KubeValidation() {}

  // --- small accessors -------------------------------------------------------------------

  /**
   * The string at {@code path}, or "" (Go's zero value).
   *
   * @param m the map
   * @param path the field names
   * @return the string
   */
  public static String str(MapValue m, String... path) {
    return io.apiserver4j.core.Nested.getOrNull(m, path) instanceof StringValue s ? s.value() : "";
  }

  /**
   * The map items of a list, non-maps as empty maps (the decoder rejects those earlier).
   *
   * @param list the list value
   * @return the maps; empty when not a list
   */
  public static List<MapValue> items(Value list) {
    List<MapValue> out = new ArrayList<>();
    if (list instanceof ListValue l) {
      for (Value v : l.items()) {
        out.add(v instanceof MapValue m ? m : MapValue.empty());
      }
    }
    return out;
  }

  /**
   * The path of a list item.
   *
   * @param path the list's path
   * @param i the index
   * @return {@code path[i]}
   */
  public static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  // --- ranges and immutability -----------------------------------------------------------

  /**
   * {@code ValidateNonnegativeField}.
   *
   * @param v the value
   * @param path the field path
   * @param errs receives the field errors
   */
  public static void nonNegative(Value v, String path, List<FieldError> errs) {
    if (v instanceof IntegerValue i && i.value() < 0) {
      errs.add(FieldError.invalid(path, i, NON_NEGATIVE));
    }
  }

  /**
   * {@code ValidateImmutableField}: the new value must equal the old one.
   *
   * @param now the new value
   * @param old the stored value
   * @param path the field path
   * @param errs receives the field errors
   */
  public static void immutable(Value now, Value old, String path, List<FieldError> errs) {
    if (!Objects.equals(normalizeAbsent(now), normalizeAbsent(old))) {
      errs.add(FieldError.invalid(path, now == null ? Value.nullValue()
          : now, IMMUTABLE));
    }
  }

  private static Value normalizeAbsent(Value v) {
    return v == null || v.isNull() ? null : v;
  }

  /**
   * {@code validation.IsValidPortNum}: a port in 1..65535.
   *
   * @param v the value
   * @param path the field path
   * @param errs receives the field errors
   */
  public static void portNumber(Value v, String path, List<FieldError> errs) {
    if (v instanceof IntegerValue p) {
      portNum(p.value()).forEach(m -> errs.add(FieldError.invalid(path, p, m)));
    }
  }

  /**
   * {@code validation.IsValidPortNum}'s messages.
   *
   * @param port the port
   * @return the messages; empty when valid
   */
  public static List<String> portNum(long port) {
    return port < 1 || port > 65535 ? List.of(PORT_RANGE) : List.of();
  }

  /**
   * {@code validation.IsValidPortName}: an IANA_SVC_NAME (RFC 6335).
   *
   * @param port the port name
   * @return the messages; empty when valid
   */
  public static List<String> portName(String port) {
    List<String> out = new ArrayList<>();
    if (port.length() > 15) {
      out.add("must be no more than 15 characters");
    }
    if (!IANA_SVC_NAME_ALNUM.matcher(port).matches()) {
      out.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if (!IANA_SVC_NAME_LETTER.matcher(port).find()) {
      out.add("must contain at least one letter (a-z)");
    }
    if (port.contains("--")) {
      out.add("must not contain consecutive hyphens");
    }
    if (!port.isEmpty() && (port.charAt(0) == '-' || port.charAt(port.length() - 1) == '-')) {
      out.add("must not begin or end with a hyphen");
    }
    return out;
  }

  /**
   * A required enum field: Required when empty, NotSupported when not one of {@code allowed}.
   *
   * @param m the map
   * @param key the field name
   * @param path the field path
   * @param allowed the supported values
   * @param errs receives the field errors
   */
  public static void requiredEnum(MapValue m, String key, String path, List<String> allowed,
      List<FieldError> errs) {
    String v = str(m, key);
    if (v.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    } else if (!allowed.contains(v)) {
      errs.add(FieldError.notSupported(path, Value.of(v), allowed));
    }
  }

  /**
   * An optional enum field: NotSupported when set and not one of {@code allowed}.
   *
   * @param m the map
   * @param key the field name
   * @param path the field path
   * @param allowed the supported values
   * @param errs receives the field errors
   */
  public static void optionalEnum(MapValue m, String key, String path, List<String> allowed,
      List<FieldError> errs) {
    if (m.getOrNull(key) instanceof StringValue s && !allowed.contains(s.value())) {
      errs.add(FieldError.notSupported(path, s, allowed));
    }
  }

  // --- label selectors -------------------------------------------------------------------

  /**
   * metav1 {@code ValidateLabelSelector} (a null selector is valid).
   *
   * @param selector the selector value
   * @param path the field path
   * @param errs receives the field errors
   */
  public static void labelSelector(Value selector, String path, List<FieldError> errs) {
    labelSelector(selector, path, false, errs);
  }

  /**
   * Whether a stored selector has a label value kube no longer accepts (update ratcheting).
   *
   * @param selector the stored selector
   * @return true when such a value is present
   */
  public static boolean hasInvalidLabelValue(Value selector) {
    List<FieldError> errs = new ArrayList<>();
    labelSelector(selector, "", false, errs);
    return !errs.isEmpty();
  }

  /**
   * metav1 {@code ValidateLabelSelector} with kube's {@code AllowInvalidLabelValueInSelector}
   * option, set on updates of objects whose stored selector already had such values.
   *
   * @param selector the selector value
   * @param path the field path
   * @param allowInvalidValues whether invalid label values are tolerated
   * @param errs receives the field errors
   */
  public static void labelSelector(Value selector, String path, boolean allowInvalidValues,
      List<FieldError> errs) {
    if (!(selector instanceof MapValue sel)) {
      return;
    }
    errs.addAll(MetaValidation.labels(sel.getOrNull("matchLabels"), path + ".matchLabels"));
    List<MapValue> exprs = items(sel.getOrNull("matchExpressions"));
    for (int i = 0; i < exprs.size(); i++) {
      String at = index(path + ".matchExpressions", i);
      MapValue e = exprs.get(i);
      String op = str(e, "operator");
      List<Value> values = e.getOrNull("values") instanceof ListValue l ? l.items() : List.of();
      switch (op) {
        case "In", "NotIn" -> {
          if (values.isEmpty()) {
            errs.add(FieldError.required(at + ".values",
                "must be specified when `operator` is 'In' or 'NotIn'"));
          }
        }
        case "Exists", "DoesNotExist" -> {
          if (!values.isEmpty()) {
            errs.add(FieldError.forbidden(at + ".values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
          }
        }
        default -> errs.add(FieldError.invalid(at + ".operator", Value.of(op),
            "not a valid selector operator"));
      }
      String key = str(e, "key");
      for (String msg : MetaValidation.qualifiedName(key)) {
        errs.add(FieldError.invalid(at + ".key", Value.of(key), msg));
      }
      for (int j = 0; j < values.size() && !allowInvalidValues; j++) {
        String v = values.get(j) instanceof StringValue s ? s.value() : "";
        for (String msg : MetaValidation.labelValue(v)) {
          errs.add(FieldError.invalid(at + ".values[" + j + "]", Value.of(v), msg));
        }
      }
    }
  }


  /**
   * Whether {@code LabelSelectorAsSelector} accepts the selector: known operators, values for
   * In and NotIn, none for Exists and DoesNotExist.
   *
   * @param selector the selector map
   * @return true when convertible
   */
  public static boolean convertibleSelector(MapValue selector) {
    for (MapValue e : items(selector.getOrNull("matchExpressions"))) {
      int values = e.getOrNull("values") instanceof ListValue l ? l.size() : 0;
      boolean ok = switch (str(e, "operator")) {
        case "In", "NotIn" -> values > 0;
        case "Exists", "DoesNotExist" -> values == 0;
        default -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a selector selects nothing-in-particular (no labels, no expressions).
   *
   * @param selector the selector map
   * @return true when empty
   */
  public static boolean isEmptySelector(MapValue selector) {
    return mapIsEmpty(selector, "matchLabels")
        && !(selector.getOrNull("matchExpressions") instanceof ListValue l && !l.isEmpty());
  }

  /**
   * Whether a LabelSelector map selects {@code labels}.
   *
   * @param selector the selector map
   * @param labels the labels
   * @return true when selected
   */
  public static boolean selectorMatches(MapValue selector, MapValue labels) {
    if (selector.getOrNull("matchLabels") instanceof MapValue ml) {
      for (int i = 0; i < ml.size(); i++) {
        if (!ml.valueAt(i).equals(labels.getOrNull(ml.keyAt(i)))) {
          return false;
        }
      }
    }
    for (MapValue expr : items(selector.getOrNull("matchExpressions"))) {
      List<String> values = Meta.stringList(expr.getOrNull("values"));
      String v = labels.getOrNull(str(expr, "key")) instanceof StringValue s ? s.value() : null;
      boolean ok = switch (str(expr, "operator")) {
        case "In" -> v != null && values.contains(v);
        case "NotIn" -> v == null || !values.contains(v);
        case "Exists" -> v != null;
        case "DoesNotExist" -> v == null;
        default -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a plain label-set selector (ReplicationController, Service) selects {@code labels}.
   *
   * @param selector the label set
   * @param labels the labels
   * @return true when selected
   */
  public static boolean labelSetMatches(MapValue selector, MapValue labels) {
    for (int i = 0; i < selector.size(); i++) {
      if (!selector.valueAt(i).equals(labels.getOrNull(selector.keyAt(i)))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLabelSet(MapValue selector) {
    if (selector.containsKey("matchLabels") || selector.containsKey("matchExpressions")) {
      return false;
    }
    for (int i = 0; i < selector.size(); i++) {
      if (!(selector.valueAt(i) instanceof StringValue)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The string form of a LabelSelector, as {@code LabelSelectorAsSelector(s).String()} writes
   * it: requirements sorted by key, {@code k=v}, {@code k in (a,b)}, {@code k notin (a,b)},
   * {@code k}, {@code !k}, joined by commas.
   *
   * @param selector the selector map
   * @return the string form
   */
  public static String formatSelector(MapValue selector) {
    List<String[]> parts = new ArrayList<>();
    if (isLabelSet(selector)) {
      // a ReplicationController's selector is a plain label set: SelectorFromSet(s).String()
      for (int i = 0; i < selector.size(); i++) {
        parts.add(new String[] {selector.keyAt(i), selector.keyAt(i) + "="
            + Meta.string(selector, selector.keyAt(i))});
      }
    }
    if (selector.getOrNull("matchLabels") instanceof MapValue ml) {
      for (int i = 0; i < ml.size(); i++) {
        parts.add(new String[] {ml.keyAt(i), ml.keyAt(i) + "=" + Meta.string(ml, ml.keyAt(i))});
      }
    }
    for (MapValue expr : items(selector.getOrNull("matchExpressions"))) {
      String key = str(expr, "key");
      List<String> values = new ArrayList<>(new TreeSet<>(
          Meta.stringList(expr.getOrNull("values"))));
      switch (str(expr, "operator")) {
        case "In" -> parts.add(new String[] {key, key + " in (" + String.join(",", values) + ")"});
        case "NotIn" -> parts.add(new String[] {key,
            key + " notin (" + String.join(",", values) + ")"});
        case "Exists" -> parts.add(new String[] {key, key});
        case "DoesNotExist" -> parts.add(new String[] {key, "!" + key});
        default -> { }
      }
    }
    parts.sort((a, b) -> io.apiserver4j.core.Values.compareStrings(a[0], b[0]));
    List<String> out = new ArrayList<>();
    parts.forEach(p -> out.add(p[1]));
    return String.join(",", out);
  }

  // --- quantities ------------------------------------------------------------------------

  /**
   * The exact value of a resource.Quantity string (decimal and binary SI suffixes, exponents);
   * empty when it does not parse (the decoder reports malformed quantities).
   *
   * @param raw the quantity text
   * @return the value
   */
  public static Optional<BigDecimal> quantity(String raw) {
    String s = raw.trim();
    int end = s.length();
    while (end > 0 && Character.isLetter(s.charAt(end - 1))) {
      end--;
    }
    String number = s.substring(0, end);
    String suffix = s.substring(end);
    BigDecimal multiplier;
    switch (suffix) {
      case "" -> multiplier = BigDecimal.ONE;
      case "n" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(-9);
      case "u" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(-6);
      case "m" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(-3);
      case "k" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(3);
      case "M" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(6);
      case "G" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(9);
      case "T" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(12);
      case "P" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(15);
      case "E" -> multiplier = BigDecimal.ONE.scaleByPowerOfTen(18);
      case "Ki" -> multiplier = BigDecimal.valueOf(1L << 10);
      case "Mi" -> multiplier = BigDecimal.valueOf(1L << 20);
      case "Gi" -> multiplier = BigDecimal.valueOf(1L << 30);
      case "Ti" -> multiplier = BigDecimal.valueOf(1L << 40);
      case "Pi" -> multiplier = BigDecimal.valueOf(1L << 50);
      case "Ei" -> multiplier = BigDecimal.valueOf(1L << 60);
      default -> {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(new BigDecimal(number).multiply(multiplier));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The sign of a resource.Quantity.
   *
   * @param v the value
   * @return -1, 0 or 1; empty when absent or malformed
   */
  public static Optional<Integer> quantitySign(Value v) {
    return v == null || v.isNull() ? Optional.empty()
        : quantity(quantityString(v)).map(BigDecimal::signum);
  }

  /**
   * A quantity value as a string whatever its JSON form (the decoder keeps numbers numeric).
   *
   * @param v the value
   * @return the text
   */
  public static String quantityString(Value v) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    return v == null ? "" : v.toString();
  }

  private static boolean mapIsEmpty(MapValue m, String key) {
    return !(m.getOrNull(key) instanceof MapValue v) || v.isEmpty();
  }
}
