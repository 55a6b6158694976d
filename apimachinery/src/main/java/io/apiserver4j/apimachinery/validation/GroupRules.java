/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small pieces kube's validation of the core, storage, rbac, certificates and flowcontrol kinds
 * share: typed reads of the value tree, kube's resource quantities (parse, compare, canonical
 * form), IP and CIDR checks, and {@code ValidateImmutableField}.
 */
public final class GroupRules {
  private GroupRules() {}

  /**
   * The string at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the string; empty when absent or not a string
   */
  public static String str(Value v, String... path) {
    return Nested.getOrNull(v, path) instanceof StringValue s ? s.value() : "";
  }

  /**
   * The list at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the items; empty when absent or not a list
   */
  public static List<Value> list(Value v, String... path) {
    return Nested.getOrNull(v, path) instanceof ListValue l ? l.items() : List.of();
  }

  /**
   * The map items of the list at {@code path}, non-maps read as empty maps.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the maps
   */
  public static List<MapValue> maps(Value v, String... path) {
    List<MapValue> out = new ArrayList<>();
    for (Value item : list(v, path)) {
      out.add(item instanceof MapValue m ? m : MapValue.empty());
    }
    return out;
  }

  /**
   * The string items of the list at {@code path}, non-strings skipped.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the strings
   */
  public static List<String> strings(Value v, String... path) {
    List<String> out = new ArrayList<>();
    for (Value item : list(v, path)) {
      out.add(item instanceof StringValue s ? s.value() : "");
    }
    return out;
  }

  /**
   * The integer at {@code path}, if there is one.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the integer; empty when absent or not an integer
   */
  public static Optional<Long> integer(Value v, String... path) {
    return Nested.getOrNull(v, path) instanceof IntegerValue i ? Optional.of(i.value())
        : Optional.empty();
  }

  /**
   * Whether a non-null value is at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return true when present
   */
  public static boolean present(Value v, String... path) {
    Value x = Nested.getOrNull(v, path);
    return x != null && !x.isNull();
  }

  /**
   * A map or list that is absent or has no entries (Go's {@code len(x) == 0}).
   *
   * @param v the root value
   * @param path the field names from the root
   * @return true when empty or absent
   */
  public static boolean empty(Value v, String... path) {
    Value x = Nested.getOrNull(v, path);
    return x == null || x.isNull() || (x instanceof MapValue m && m.isEmpty())
        || (x instanceof ListValue l && l.isEmpty())
        || (x instanceof StringValue s && s.value().isEmpty());
  }

  /**
   * apimachinery's {@code ValidateImmutableField}: a change is {@code field is immutable}.
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param now the new value
   * @param before the stored value
   */
  public static void immutable(List<FieldError> errs, String path, Value now, Value before) {
    Value a = now == null ? Value.nullValue() : now;
    Value b = before == null ? Value.nullValue() : before;
    if (!a.equals(b)) {
      errs.add(FieldError.invalid(path, a, "field is immutable"));
    }
  }

  /**
   * A list of string values.
   *
   * @param values the strings
   * @return the list
   */
  public static ListValue stringList(String... values) {
    ListValue.Builder b = ListValue.builder(values.length);
    for (String v : values) {
      b.add(Value.of(v));
    }
    return b.build();
  }

  /**
   * kube's {@code IsQualifiedName} messages for {@code value} at {@code path}.
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param value the name
   */
  public static void qualifiedName(List<FieldError> errs, String path, String value) {
    for (String msg : MetaValidation.qualifiedName(value)) {
      errs.add(FieldError.invalid(path, Value.of(value), msg));
    }
  }

  // --- quantities (apimachinery's resource.Quantity) ---------------------------------------

  private static final Pattern QUANTITY =
      Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(|[eE][+-]?[0-9]+|[numkMGTPE]|Ki|Mi|Gi|Ti|Pi|Ei)");
  private static final Map<String, Integer> DECIMAL = Map.ofEntries(Map.entry("n", -9),
      Map.entry("u", -6), Map.entry("m", -3), Map.entry("", 0), Map.entry("k", 3),
      Map.entry("M", 6), Map.entry("G", 9), Map.entry("T", 12), Map.entry("P", 15),
      Map.entry("E", 18));
  private static final List<String> BINARY = List.of("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei");
  private static final String[] DECIMAL_SUFFIX = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};

  /** A parsed quantity: its exact value (rounded up to nano units, as kube) and its format. */
  public record Quantity(BigDecimal value, char format) implements Comparable<Quantity> {
    static final char BINARY_SI = 'b';
    /**
     * The format of a quantity with a decimal SI suffix (or none).
     */
    public static final char DECIMAL_SI = 'd';
    static final char DECIMAL_EXPONENT = 'e';

    /**
     * The quantity {@code text} denotes, if it is one.
     *
     * @param text the text
     * @return the quantity; empty when it does not parse
     */
    public static Optional<Quantity> parse(String text) {
      Matcher m = QUANTITY.matcher(text);
      if (!m.matches()) {
        return Optional.empty();
      }
      BigDecimal number = new BigDecimal(m.group(1).endsWith(".")
          ? m.group(1) + "0" : m.group(1));
      String suffix = m.group(2);
      char format;
      BigDecimal v;
      if (BINARY.contains(suffix) && !suffix.isEmpty()) {
        format = BINARY_SI;
        v = number.multiply(BigDecimal.valueOf(1024).pow(BINARY.indexOf(suffix)));
      } else if (suffix.startsWith("e") || suffix.startsWith("E")) {
        format = DECIMAL_EXPONENT;
        v = number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
      } else {
        format = DECIMAL_SI;
        v = number.scaleByPowerOfTen(DECIMAL.get(suffix));
      }
      // kube keeps nano precision, rounding away from zero
      v = v.setScale(9, RoundingMode.UP).stripTrailingZeros();
      return Optional.of(new Quantity(v, format));
    }

    /**
     * Whether the value is below zero.
     *
     * @return true when negative
     */
    public boolean isNegative() {
      return value.signum() < 0;
    }

    /**
     * Whether the value has no fraction.
     *
     * @return true for whole numbers
     */
    public boolean isInteger() {
      return value.stripTrailingZeros().scale() <= 0;
    }

    @Override
    public int compareTo(Quantity o) {
      return value.compareTo(o.value);
    }

    /** kube's canonical {@code String()} of the quantity. */
    @Override
    public String toString() {
      if (value.signum() == 0) {
        return "0";
      }
      char f = format;
      if (f == BINARY_SI && (value.abs().compareTo(BigDecimal.valueOf(1024)) < 0 || !isInteger())) {
        f = DECIMAL_SI;
      }
      if (f == BINARY_SI) {
        BigInteger n = value.toBigIntegerExact();
        int k = 0;
        BigInteger base = BigInteger.valueOf(1024);
        while (k < BINARY.size() - 1 && n.mod(base).signum() == 0) {
          n = n.divide(base);
          k++;
        }
        return n + BINARY.get(k);
      }
      int exp = -9;
      BigDecimal mantissa = value.scaleByPowerOfTen(9);
      while (exp < 18 && mantissa.remainder(BigDecimal.valueOf(1000)).signum() == 0) {
        mantissa = mantissa.divide(BigDecimal.valueOf(1000));
        exp += 3;
      }
      String m = mantissa.toBigInteger().toString();
      if (f == DECIMAL_EXPONENT) {
        return exp == 0 ? m : m + "e" + exp;
      }
      return m + DECIMAL_SUFFIX[exp / 3 + 3];
    }
  }

  /**
   * The quantity at {@code path} of a map, or the parse error kube's decoder reports.
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param v the value
   * @return the quantity; empty when absent or malformed
   */
  public static Optional<Quantity> quantity(List<FieldError> errs, String path, Value v) {
    String text = v instanceof StringValue s ? s.value() : v instanceof IntegerValue i
        ? Long.toString(i.value()) : v == null ? "" : v.toString();
    Optional<Quantity> q = Quantity.parse(text);
    if (q.isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(text),
          "quantities must match the regular expression "
              + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    }
    return q;
  }

  /**
   * kube's {@code ValidateNonnegativeQuantity}.
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param q the quantity
   */
  public static void nonNegative(List<FieldError> errs, String path, Quantity q) {
    if (q.isNegative()) {
      errs.add(FieldError.invalid(path, Value.of(q.toString()),
          "must be greater than or equal to 0"));
    }
  }

  // --- IP addresses --------------------------------------------------------------------------

  /**
   * The 4 or 16 bytes of an IP literal (IPv4 octets may have leading zeros, as kube's legacy fields).
   *
   * @param s the text
   * @return the bytes; empty when not an IP
   */
  public static Optional<byte[]> parseIp(String s) {
    if (s.isEmpty()) {
      return Optional.empty();
    }
    if (s.indexOf(':') >= 0) {
      if (!s.matches("[0-9a-fA-F:.]+")) {
        return Optional.empty();
      }
      try {
        return Optional.of(java.net.InetAddress.getByName("[" + s + "]").getAddress());
      } catch (java.net.UnknownHostException | RuntimeException e) {
        return Optional.empty();
      }
    }
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return Optional.empty();
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      if (!parts[i].matches("[0-9]{1,3}")) {
        return Optional.empty();
      }
      int n = Integer.parseInt(parts[i]);
      if (n > 255) {
        return Optional.empty();
      }
      out[i] = (byte) n;
    }
    return Optional.of(out);
  }

  /**
   * kube's {@code IsValidIP} (the legacy form, as Endpoints and Node fields use).
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param ip the text
   * @return true when valid
   */
  public static boolean validIp(List<FieldError> errs, String path, String ip) {
    if (parseIp(ip).isEmpty()) {
      errs.add(FieldError.invalid(path, Value.of(ip),
          "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
      return false;
    }
    return true;
  }

  /**
   * kube's {@code IsValidCIDR} (legacy form).
   *
   * @param errs receives the field errors
   * @param path the field path
   * @param cidr the text
   * @return true when valid
   */
  public static boolean validCidr(List<FieldError> errs, String path, String cidr) {
    int slash = cidr.indexOf('/');
    boolean ok = false;
    if (slash > 0) {
      Optional<byte[]> ip = parseIp(cidr.substring(0, slash));
      String bits = cidr.substring(slash + 1);
      ok = ip.isPresent() && bits.matches("[0-9]{1,3}")
          && Integer.parseInt(bits) <= ip.get().length * 8;
    }
    if (!ok) {
      errs.add(FieldError.invalid(path, Value.of(cidr),
          "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
    }
    return ok;
  }
}
