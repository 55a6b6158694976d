/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAPI value validation kube-apiserver runs on custom resources (kube-openapi's
 * {@code validate.SchemaValidator} as apiextensions-apiserver configures it, errors converted
 * to field errors as its {@code kubeOpenAPIResultToFieldErrors} does), then the list-type
 * uniqueness checks of the {@code listtype} package. Field paths and messages are kube's:
 * {@code spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10}.
 *
 * <p>On updates, validation ratchets as kube 1.36 does (CRDValidationRatcheting): a value that
 * is equal to its correlated old value (through object keys, list-map keys and set members) is
 * not validated again.
 *
 * <p>Thread-safe: stateless apart from a cache of compiled patterns.
 */
public final class SchemaValidation {
  private static final Map<String, Object> PATTERNS = new ConcurrentHashMap<>();
  private static final double MAX_SAFE_INTEGER = 9007199254740992d;

  private SchemaValidation() {}

  /** Validates {@code value} against {@code schema}; {@code old} enables ratcheting. */
  public static List<FieldError> validate(SchemaNode schema, Value value, Optional<Value> old) {
    List<FieldError> errs = new ArrayList<>();
    validate(schema, value, old.orElse(null), "", errs, true);
    listTypes(schema, value, "", errs);
    return errs;
  }

  // --- kube-openapi SchemaValidator ------------------------------------------------------------

  static void validate(SchemaNode s, Value v, Value old, String path, List<FieldError> errs,
      boolean correlated) {
    if (correlated && old != null && old.equals(v)) {
      return;
    }
    List<String> types = s.types;
    if (v.isNull()) {
      if (!types.isEmpty() && !s.nullable) {
        errs.add(typeError(path, String.join(",", types), "null"));
      }
      checkEnum(s, v, path, errs);
      return;
    }
    checkType(s, types, v, path, errs);
    composition(s, v, path, errs);
    if (v instanceof StringValue str) {
      checkString(s, str.value(), path, errs);
      checkFormat(s, str.value(), path, errs);
    }
    if (v instanceof IntegerValue || v instanceof FloatValue) {
      checkNumber(s, types, v, path, errs);
    }
    if (v instanceof ListValue l) {
      checkList(s, l, old instanceof ListValue ol && correlated ? ol : null, path, errs);
    }
    checkEnum(s, v, path, errs);
    if (v instanceof MapValue m) {
      checkObject(s, m, old instanceof MapValue om && correlated ? om : null, path, errs);
    }
  }

  private static void checkType(SchemaNode s, List<String> types, Value v, String path,
      List<FieldError> errs) {
    if (types.isEmpty()) {
      return;
    }
    String actual = v.kind().schemaType();
    boolean floatInt = v instanceof FloatValue f && types.contains("integer")
        && f.value() == Math.rint(f.value()) && Math.abs(f.value()) < MAX_SAFE_INTEGER;
    boolean intFloat = v instanceof IntegerValue && types.contains("number");
    String format = numericFormat(s);
    if (v instanceof FloatValue && !format.isEmpty() && !types.contains(actual) && !floatInt) {
      errs.add(typeError(path, format, "float64"));
      return;
    }
    if (!(types.contains(actual) || floatInt || intFloat)) {
      errs.add(typeError(path, String.join(",", types), actual));
    }
  }

  private static String numericFormat(SchemaNode s) {
    if (s.type.equals("integer") && (s.format.equals("int32") || s.format.equals("int64"))) {
      return s.format;
    }
    if (s.type.equals("number") && (s.format.equals("float") || s.format.equals("double"))) {
      return s.format;
    }
    return "";
  }

  static FieldError typeError(String path, String expected, String actual) {
    return new FieldError(FieldError.Type.TYPE_INVALID, field(path),
        Optional.of(Value.of(actual)),
        name(path) + " in body must be of type " + expected + ": " + GoStrings.quote(actual));
  }

  private static void composition(SchemaNode s, Value v, String path, List<FieldError> errs) {
    if (!s.anyOf.isEmpty()) {
      List<FieldError> best = null;
      int bestCount = -1;
      boolean ok = false;
      for (SchemaNode alt : s.anyOf) {
        List<FieldError> r = sub(alt, v, path);
        if (r.isEmpty()) {
          ok = true;
          break;
        }
        // kube-openapi reports the failed alternative with the most checks run (the first on
        // ties), not the one with the fewest errors
        int count = matchCount(alt, v);
        if (count > bestCount) {
          best = r;
          bestCount = count;
        }
      }
      if (!ok) {
        errs.add(composite(GoStrings.quote(path) + " must validate at least one schema (anyOf)"));
        errs.addAll(best);
      }
    }
    if (!s.oneOf.isEmpty()) {
      List<FieldError> best = null;
      int bestCount = -1;
      int valid = 0;
      for (SchemaNode alt : s.oneOf) {
        List<FieldError> r = sub(alt, v, path);
        if (r.isEmpty()) {
          valid++;
        } else if (valid == 0) {
          int count = matchCount(alt, v);
          if (count > bestCount) {
            best = r;
            bestCount = count;
          }
        }
      }
      if (valid != 1) {
        errs.add(composite(GoStrings.quote(path)
            + " must validate one and only one schema (oneOf). "
            + (valid == 0 ? "Found none valid" : "Found " + valid + " valid alternatives")));
        if (valid == 0 && best != null) {
          errs.addAll(best);
        }
      }
    }
    if (!s.allOf.isEmpty()) {
      int valid = 0;
      for (SchemaNode alt : s.allOf) {
        List<FieldError> r = sub(alt, v, path);
        if (r.isEmpty()) {
          valid++;
        }
        errs.addAll(r);
      }
      if (valid != s.allOf.size()) {
        errs.add(composite(GoStrings.quote(path) + " must validate all the schemas (allOf)"
            + (valid == 0 ? ". None validated" : "")));
      }
    }
    if (s.not != null && sub(s.not, v, path).isEmpty()) {
      errs.add(composite(GoStrings.quote(path) + " must not validate the schema (not)"));
    }
  }

  /**
   * kube-openapi's {@code Result.MatchCount} of validating {@code v} against {@code s}: one for
   * each validator that ran (its type check counts only when it passes), summed over the
   * properties, items and the alternatives whose results are kept. It decides which failed
   * alternative of an anyOf or oneOf is reported.
   */
  static int matchCount(SchemaNode s, Value v) {
    List<String> types = s.types;
    boolean typed = !types.isEmpty() || !s.format.isEmpty();
    List<FieldError> scratch = new ArrayList<>();
    if (v.isNull()) {
      // only the type and common validators run, without counting themselves
      return typed && (types.isEmpty() || s.nullable) ? 1 : 0;
    }
    int n = 1; // the schema validator itself
    if (typed) {
      checkType(s, types, v, "", scratch);
      n += (scratch.isEmpty() ? 1 : 0) + 1;
    }
    n += compositionCount(s, v) + 1;
    if (v instanceof StringValue) {
      n += 1 + (!s.format.isEmpty() && Formats.supported(s.format) ? 1 : 0);
    }
    if (v instanceof IntegerValue || v instanceof FloatValue) {
      n += 1 + 1;
    }
    if (v instanceof ListValue l) {
      int items = 0;
      if (s.items != null) {
        for (Value item : l.items()) {
          items += matchCount(s.items, item);
        }
      }
      n += items + 1 + 1;
    }
    n += 1; // common (enum)
    if (v instanceof MapValue m) {
      int props = 0;
      for (int i = 0; i < m.size(); i++) {
        SchemaNode p = s.properties.get(m.keyAt(i));
        if (p != null) {
          props += matchCount(p, m.valueAt(i));
        } else if (s.additionalProperties != null && !s.additionalPropertiesForbidden) {
          props += matchCount(s.additionalProperties, m.valueAt(i));
        }
      }
      n += props + 1;
    }
    return n;
  }

  private static int compositionCount(SchemaNode s, Value v) {
    int n = 1;
    if (!s.anyOf.isEmpty()) {
      int best = -1;
      for (SchemaNode alt : s.anyOf) {
        int count = matchCount(alt, v);
        if (sub(alt, v, "").isEmpty()) {
          best = count;
          break;
        }
        best = Math.max(best, count);
      }
      n += Math.max(best, 0);
    }
    if (!s.oneOf.isEmpty()) {
      int valid = 0;
      int first = 0;
      int best = 0;
      for (SchemaNode alt : s.oneOf) {
        int count = matchCount(alt, v);
        if (sub(alt, v, "").isEmpty()) {
          if (valid++ == 0) {
            first = count;
          }
        } else if (valid == 0) {
          best = Math.max(best, count);
        }
      }
      n += valid == 1 ? first : valid == 0 ? best : 0;
    }
    for (SchemaNode alt : s.allOf) {
      n += matchCount(alt, v);
    }
    return n;
  }

  private static List<FieldError> sub(SchemaNode alt, Value v, String path) {
    List<FieldError> r = new ArrayList<>();
    validate(alt, v, null, path, r, false);
    return r;
  }

  // Errors kube-openapi raises without a field (composite errors) are reported on no path.
  private static FieldError composite(String message) {
    return FieldError.invalid("<nil>", Value.of(""), message);
  }

  private static void checkString(SchemaNode s, String str, String path, List<FieldError> errs) {
    int len = str.codePointCount(0, str.length());
    if (s.maxLength != null && len > s.maxLength) {
      errs.add(new FieldError(FieldError.Type.TOO_LONG, field(path), Optional.empty(),
          "may not be more than " + s.maxLength + " bytes"));
      return;
    }
    if (s.minLength != null && len < s.minLength) {
      errs.add(FieldError.invalid(field(path), Value.of(str),
          name(path) + " in body should be at least " + s.minLength + " chars long"));
      return;
    }
    if (s.pattern != null) {
      Object p = pattern(s.pattern);
      if (p instanceof String error) {
        errs.add(FieldError.invalid(field(path), Value.of(str), name(path)
            + " in body should match '" + s.pattern + ", but pattern is invalid: " + error + "'"));
      } else if (!((Regex) p).find(str)) {
        errs.add(FieldError.invalid(field(path), Value.of(str),
            name(path) + " in body should match '" + s.pattern + "'"));
      }
    }
  }

  /** A compiled pattern: re2j, and the faster matcher of the common subset when it applies. */
  record Regex(Pattern re2, Optional<SimplePattern> simple) {
    static Regex of(String pattern) {
      return new Regex(Pattern.compile(pattern), SimplePattern.of(pattern));
    }

    /** RE2's unanchored search, as kube-openapi's {@code MatchString}. */
    boolean find(String s) {
      int r = simple.isPresent() ? simple.get().find(s) : SimplePattern.UNDECIDED;
      return r == SimplePattern.UNDECIDED ? re2.matcher(s).find() : r == 1;
    }
  }

  /** The compiled pattern ({@link Regex}), or the Go error message when RE2 rejects it. */
  public static Object pattern(String pattern) {
    Object p = PATTERNS.get(pattern);
    if (p == null) {
      try {
        p = Regex.of(pattern);
      } catch (PatternSyntaxException e) {
        p = e.getMessage();
      }
      // Schemas come from clients: the cache is bounded.
      if (PATTERNS.size() < 4096) {
        PATTERNS.put(pattern, p);
      }
    }
    return p;
  }

  private static void checkFormat(SchemaNode s, String str, String path, List<FieldError> errs) {
    if (s.format.isEmpty() || !(s.type.isEmpty() || s.type.equals("string"))) {
      return;
    }
    if (!Formats.supported(s.format)) {
      return;
    }
    if (!Formats.valid(s.format, str)) {
      errs.add(typeError(path, s.format, str));
    }
  }

  private static void checkNumber(SchemaNode s, List<String> types, Value v, String path,
      List<FieldError> errs) {
    double d = v instanceof IntegerValue i ? i.value() : ((FloatValue) v).value();
    String format = numericFormat(s);
    String type = types.size() == 1 ? types.get(0) : "";
    if (type.equals("integer") && format.equals("int32")
        && (v instanceof FloatValue || d > Integer.MAX_VALUE || d < Integer.MIN_VALUE)
        && !(v instanceof FloatValue && d == Math.rint(d)
            && d <= Integer.MAX_VALUE && d >= Integer.MIN_VALUE)) {
      errs.add(composite("Checked value must be of type integer with format int32 in "
          + path));
    } else if (type.equals("integer") && v instanceof FloatValue
        && (d >= 9.223372036854775807E18 || d < -9.223372036854775808E18)) {
      errs.add(composite("Checked value must be of type integer with format "
          + (format.isEmpty() ? "int64" : format) + " in " + path));
    } else if (type.equals("number") && format.equals("float")
        && Math.abs(d) > Float.MAX_VALUE) {
      errs.add(composite("Checked value must be of type number with format float in " + path));
    }
    if (s.multipleOf != null) {
      if (s.multipleOf <= 0) {
        errs.add(FieldError.invalid(field(path), v, "factor MultipleOf declared for "
            + name(path) + " must be positive: " + GoStrings.formatFloatV(s.multipleOf)));
      } else if (!isMultiple(v, s.multipleOfValue, d, s.multipleOf)) {
        errs.add(FieldError.invalid(field(path), v, name(path) + " in body should be a multiple of "
            + GoStrings.formatFloatV(s.multipleOf)));
      }
    }
    if (s.minimum != null) {
      boolean fails = s.exclusiveMinimum ? d <= s.minimum : d < s.minimum;
      if (v instanceof IntegerValue iv && s.minimumValue instanceof IntegerValue min) {
        fails = s.exclusiveMinimum ? iv.value() <= min.value() : iv.value() < min.value();
      }
      if (fails) {
        errs.add(FieldError.invalid(field(path), v, name(path) + " in body should be greater than "
            + (s.exclusiveMinimum ? "" : "or equal to ") + GoStrings.formatFloatV(s.minimum)));
      }
    }
    if (s.maximum != null) {
      boolean fails = s.exclusiveMaximum ? d >= s.maximum : d > s.maximum;
      if (v instanceof IntegerValue iv && s.maximumValue instanceof IntegerValue max) {
        fails = s.exclusiveMaximum ? iv.value() >= max.value() : iv.value() > max.value();
      }
      if (fails) {
        errs.add(FieldError.invalid(field(path), v, name(path) + " in body should be less than "
            + (s.exclusiveMaximum ? "" : "or equal to ") + GoStrings.formatFloatV(s.maximum)));
      }
    }
  }

  private static boolean isMultiple(Value v, Value factorValue, double d, double factor) {
    if (v instanceof IntegerValue iv && factorValue instanceof IntegerValue fv) {
      return iv.value() % fv.value() == 0;
    }
    double mult = factor < 1 ? 1 / factor * d : d / factor;
    return mult == Math.rint(mult) && Math.abs(mult) < MAX_SAFE_INTEGER;
  }

  private static void checkList(SchemaNode s, ListValue l, ListValue old, String path,
      List<FieldError> errs) {
    if (s.items != null) {
      Map<Value, Value> oldByKey = old == null ? Map.of() : correlate(s, old);
      for (int i = 0; i < l.size(); i++) {
        Value item = l.get(i);
        Value key = old == null ? null : correlationKey(s, item);
        Value oldItem = key == null ? null : oldByKey.get(key);
        validate(s.items, item, oldItem, path + "[" + i + "]", errs, oldItem != null);
      }
    }
    if (s.minItems != null && l.size() < s.minItems) {
      errs.add(FieldError.invalid(field(path), Value.of((long) l.size()),
          name(path) + " in body should have at least " + s.minItems + " items"));
    }
    if (s.maxItems != null && l.size() > s.maxItems) {
      errs.add(tooMany(path, l.size(), s.maxItems));
    }
    if (s.uniqueItems && new HashSet<>(numbersNormalized(l)).size() != l.size()) {
      errs.add(FieldError.invalid(field(path), l,
          name(path) + " in body shouldn't contain duplicates"));
    }
  }

  private static List<Value> numbersNormalized(ListValue l) {
    List<Value> out = new ArrayList<>();
    for (Value v : l.items()) {
      out.add(v instanceof FloatValue f && f.value() == Math.rint(f.value())
          && Math.abs(f.value()) < MAX_SAFE_INTEGER ? Value.of((long) f.value()) : v);
    }
    return out;
  }

  /** Old list items by the key that identifies them: map keys of list-type map, set members. */
  private static Map<Value, Value> correlate(SchemaNode s, ListValue old) {
    if (!s.listType.equals("map") && !s.listType.equals("set")) {
      return Map.of();
    }
    Map<Value, Value> out = new HashMap<>();
    for (Value item : old.items()) {
      Value key = correlationKey(s, item);
      if (key != null) {
        out.putIfAbsent(key, item);
      }
    }
    return out;
  }

  static Value correlationKey(SchemaNode s, Value item) {
    if (s.listType.equals("set")) {
      return item;
    }
    if (s.listType.equals("map") && item instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder();
      for (String k : s.listMapKeys) {
        Value kv = m.getOrNull(k);
        if (kv != null) {
          b.put(k, kv);
        }
      }
      return b.build();
    }
    return null;
  }

  private static FieldError tooMany(String path, long actual, long max) {
    return new FieldError(FieldError.Type.TOO_MANY, field(path), Optional.of(Value.of(actual)),
        "must have at most " + max + " items");
  }

  private static void checkEnum(SchemaNode s, Value v, String path, List<FieldError> errs) {
    if (s.enumValues.isEmpty()) {
      return;
    }
    for (Value e : s.enumValues) {
      if (enumEquals(e, v)) {
        return;
      }
    }
    List<String> supported = new ArrayList<>();
    for (Value e : s.enumValues) {
      supported.add(e instanceof StringValue str ? str.value() : Json.write(e));
    }
    errs.add(FieldError.notSupported(field(path), v, supported));
  }

  private static boolean enumEquals(Value e, Value v) {
    if ((e instanceof IntegerValue || e instanceof FloatValue)
        && (v instanceof IntegerValue || v instanceof FloatValue)) {
      double a = e instanceof IntegerValue i ? i.value() : ((FloatValue) e).value();
      double b = v instanceof IntegerValue i ? i.value() : ((FloatValue) v).value();
      return a == b;
    }
    return e.equals(v);
  }

  private static void checkObject(SchemaNode s, MapValue m, MapValue old, String path,
      List<FieldError> errs) {
    if (s.minProperties != null && m.size() < s.minProperties) {
      errs.add(FieldError.invalid(field(path), Value.of((long) m.size()),
          name(path) + " in body should have at least " + s.minProperties + " properties"));
    }
    if (s.maxProperties != null && m.size() > s.maxProperties) {
      errs.add(tooMany(path, m.size(), s.maxProperties));
    }
    if (s.additionalPropertiesForbidden) {
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        if (!s.properties.containsKey(k)) {
          errs.add(FieldError.invalid(field(path), m, name(path) + "." + k
              + " in body is a forbidden property"));
        }
      }
    } else if (s.additionalProperties != null) {
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        if (!s.properties.containsKey(k)) {
          Value oldChild = old == null ? null : old.getOrNull(k);
          validate(s.additionalProperties, m.valueAt(i), oldChild, child(path, k), errs,
              oldChild != null);
        }
      }
    }
    for (Map.Entry<String, SchemaNode> p : s.properties.entrySet()) {
      Value child = m.getOrNull(p.getKey());
      if (child != null) {
        Value oldChild = old == null ? null : old.getOrNull(p.getKey());
        validate(p.getValue(), child, oldChild, p.getValue().pathUnder(path, p.getKey()), errs,
            oldChild != null);
      }
    }
    for (String r : s.required) {
      if (!m.containsKey(r)) {
        errs.add(FieldError.required(field(child(path, r)), ""));
      }
    }
    if (s.embeddedResource) {
      Embedded.validate(m, path, errs);
    }
  }

  // --- the listtype package ---------------------------------------------------------------------

  static void listTypes(SchemaNode s, Value v, String path, List<FieldError> errs) {
    if (!s.listTypesBelow) {
      return;
    }
    if (v instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        String k = m.keyAt(i);
        SchemaNode p = s.properties.get(k);
        if (p != null) {
          if (p.listTypesBelow) {
            listTypes(p, m.valueAt(i), p.pathUnder(path, k), errs);
          }
        } else if (s.additionalProperties != null && s.additionalProperties.listTypesBelow) {
          listTypes(s.additionalProperties, m.valueAt(i), path + "[" + k + "]", errs);
        }
      }
    } else if (v instanceof ListValue l) {
      if (s.listType.equals("set")) {
        for (int i : duplicates(l.items())) {
          errs.add(FieldError.duplicate(field(path + "[" + i + "]"), l.get(i)));
        }
      } else if (s.listType.equals("map")) {
        listMap(s, l, path, errs);
      }
      if (s.items != null && s.items.listTypesBelow) {
        for (int i = 0; i < l.size(); i++) {
          listTypes(s.items, l.get(i), path + "[" + i + "]", errs);
        }
      }
    }
  }

  private static void listMap(SchemaNode s, ListValue l, String path, List<FieldError> errs) {
    for (int i = 0; i < l.size(); i++) {
      Value x = l.get(i);
      if (!x.isNull() && !(x instanceof MapValue)) {
        errs.add(FieldError.invalid(field(path + "[" + i + "]"), x,
            "must be an object for an array of list-type map"));
        return;
      }
    }
    List<Value> keys = new ArrayList<>();
    for (Value x : l.items()) {
      MapValue.Builder key = MapValue.builder();
      if (x instanceof MapValue m) {
        for (String k : s.listMapKeys) {
          Value kv = m.getOrNull(k);
          if (kv != null) {
            key.put(k, kv);
          }
        }
      }
      keys.add(key.build());
    }
    for (int i : duplicates(keys)) {
      errs.add(FieldError.duplicate(field(path + "[" + i + "]"), keys.get(i)));
    }
  }

  /** Indices of the second occurrence of each value that occurs more than once. */
  private static List<Integer> duplicates(List<Value> items) {
    if (items.size() <= 16) {
      // small sets (the usual ones): pairwise comparison costs less than hashing
      List<Integer> out = List.of();
      for (int i = 1; i < items.size(); i++) {
        int first = -1;
        for (int j = 0; j < i && first < 0; j++) {
          if (items.get(j).equals(items.get(i))) {
            first = j;
          }
        }
        // reported once, at the second occurrence, as the map below does
        if (first >= 0 && secondOccurrence(items, first, i)) {
          out = out.isEmpty() ? new ArrayList<>() : out;
          out.add(i);
        }
      }
      return out;
    }
    Map<Value, Integer> seen = new LinkedHashMap<>();
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      int times = seen.merge(items.get(i), 1, Integer::sum);
      if (times == 2) {
        out.add(i);
      }
    }
    return out;
  }

  /** Whether {@code i} is the second occurrence of the value first seen at {@code first}. */
  private static boolean secondOccurrence(List<Value> items, int first, int i) {
    for (int j = first + 1; j < i; j++) {
      if (items.get(j).equals(items.get(first))) {
        return false;
      }
    }
    return true;
  }

  // --- paths ----------------------------------------------------------------------------------

  static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The field of a field error: kube's nil path prints as {@code <nil>}. */
  static String field(String path) {
    return path.isEmpty() ? "<nil>" : path;
  }

  /** The name kube-openapi puts in its messages. */
  static String name(String path) {
    return path;
  }
}
