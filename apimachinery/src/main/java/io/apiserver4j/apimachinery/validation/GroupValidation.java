/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.LabelValidation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validation helpers only the strategies of the networking, policy, autoscaling, coordination,
 * scheduling, node, discovery and events groups use (lenient accessors, wildcard and
 * domain-prefixed names, PDB percentages, IP messages), with kube's messages; what all kinds
 * share (selectors, ports, quantities, immutability) is {@link KubeValidation}.
 */
public final class GroupValidation {
  private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
  private static final Pattern HTTP_PATH = Pattern.compile("[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+");
  private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  private static final String WILDCARD_FMT = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?"
      + "(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern WILDCARD = Pattern.compile(WILDCARD_FMT);

  private GroupValidation() {}

  /**
   * The string field of a map.
   *
   * @param v the map
   * @param key the field name
   * @return the string; empty when absent
   */
  public static String str(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  /**
   * The map field of a map.
   *
   * @param v the map
   * @param key the field name
   * @return the map, or null when absent
   */
  public static MapValue map(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof MapValue r ? r : null;
  }

  /**
   * The list field of a map.
   *
   * @param v the map
   * @param key the field name
   * @return the items; empty when absent
   */
  public static List<Value> list(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof ListValue l ? l.items()
        : List.of();
  }

  /**
   * The integer at {@code key}.
   *
   * @param v the map
   * @param key the field name
   * @return the integer, or null when absent
   */
  public static Long integer(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof IntegerValue i ? i.value()
        : null;
  }

  /**
   * Whether a map has a non-null field.
   *
   * @param v the map
   * @param key the field name
   * @return true when present
   */
  public static boolean has(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) != null && !m.getOrNull(key).isNull();
  }

  /**
   * An Invalid error whose value is given as kube renders it: since 1.34 apimachinery's
   * {@code field.Error} prints values that are not plain strings or numbers as their JSON
   * ({@code json.Marshal}), which for kube's internal types uses the Go field names.
   *
   * @param field the field path
   * @param goValue the value as kube renders it
   * @param detail the explanation
   * @return the error
   */
  public static FieldError invalidGo(String field, String goValue, String detail) {
    return new FieldError(FieldError.Type.INVALID, field, Optional.empty(),
        goValue + ": " + detail);
  }

  /**
   * {@code IsWildcardDNS1123Subdomain}.
   *
   * @param value the name
   * @return the error texts; empty when valid
   */
  public static List<String> wildcardSubdomain(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > 253) {
      errs.add("must be no more than 253 characters");
    }
    if (!WILDCARD.matcher(value).matches()) {
      errs.add(LabelValidation.regexError("a wildcard DNS-1123 subdomain must start with '*.',"
          + " followed by a valid DNS subdomain, which must consist of lower case alphanumeric"
          + " characters, '-' or '.' and end with an alphanumeric character", WILDCARD_FMT,
          "*.example.com"));
    }
    return errs;
  }

  /**
   * {@code IsDomainPrefixedPath}.
   *
   * @param errs receives the field errors
   * @param field the field path
   * @param value the path
   */
  public static void domainPrefixedPath(List<FieldError> errs, String field, String value) {
    if (value.isEmpty()) {
      errs.add(FieldError.required(field, ""));
      return;
    }
    int slash = value.indexOf('/');
    if (slash <= 0 || slash == value.length() - 1) {
      errs.add(FieldError.invalid(field, Value.of(value),
          "must be a domain-prefixed path (such as \"acme.io/foo\")"));
      return;
    }
    String host = value.substring(0, slash);
    for (String msg : MetaValidation.dns1123Subdomain(host)) {
      errs.add(FieldError.invalid(field, Value.of(host), msg));
    }
    String path = value.substring(slash + 1);
    if (!HTTP_PATH.matcher(path).matches()) {
      errs.add(FieldError.invalid(field, Value.of(path),
          LabelValidation.regexError("Invalid path", HTTP_PATH_FMT)));
    }
  }

  // --- IntOrString ---------------------------------------------------------------------------

  /**
   * apps {@code ValidatePositiveIntOrPercent} and {@code IsNotMoreThan100Percent}.
   *
   * @param errs receives the field errors
   * @param v the value
   * @param field the field path
   */
  public static void positiveIntOrPercentMax100(List<FieldError> errs, Value v, String field) {
    if (v instanceof StringValue s) {
      if (!PERCENT.matcher(s.value()).matches()) {
        errs.add(FieldError.invalid(field, v, LabelValidation.regexError(
            "a valid percent string must be a numeric string followed by an ending '%'",
            "[0-9]+%", "1%", "93%")));
        return;
      }
      String digits = s.value().substring(0, s.value().length() - 1);
      if (digits.length() > 3 || Integer.parseInt(digits) > 100) {
        errs.add(FieldError.invalid(field, v, "must not be greater than 100%"));
      }
    } else if (v instanceof IntegerValue i && i.value() < 0) {
      errs.add(FieldError.invalid(field, i, "must be greater than or equal to 0"));
    }
  }

  // --- IP addresses: parsed by core IpAddresses; kube's messages for values that are not ---

  /**
   * kube's message for an invalid IP address.
   */
  public static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  /**
   * kube's message for an invalid CIDR.
   */
  public static final String INVALID_CIDR =
      "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
}
