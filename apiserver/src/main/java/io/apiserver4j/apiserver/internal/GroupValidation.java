package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.LabelValidation;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validation helpers shared by the strategies of the networking, policy, autoscaling,
 * coordination, scheduling, node, discovery and events groups, with the messages of kube's
 * {@code util/validation}, {@code api/validation} and {@code apis/meta/v1/validation}.
 */
final class GroupValidation {
  static final String IMMUTABLE = "field is immutable";
  private static final Pattern PORT_NAME_CHARSET = Pattern.compile("[-a-z0-9]+");
  private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
  private static final Pattern HTTP_PATH = Pattern.compile("[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+");
  private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  private static final String WILDCARD_FMT = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?"
      + "(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern WILDCARD = Pattern.compile(WILDCARD_FMT);

  private GroupValidation() {}

  static String str(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof StringValue s ? s.value() : "";
  }

  static MapValue map(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof MapValue r ? r : null;
  }

  static List<Value> list(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof ListValue l ? l.items()
        : List.of();
  }

  /** The integer at {@code key}, or null when absent. */
  static Long integer(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) instanceof IntegerValue i ? i.value()
        : null;
  }

  static boolean has(Value v, String key) {
    return v instanceof MapValue m && m.getOrNull(key) != null && !m.getOrNull(key).isNull();
  }

  /**
   * An Invalid error whose value kube prints with Go's {@code %#v} (a struct or typed value),
   * written out as kube does.
   */
  static FieldError invalidGo(String field, String goValue, String detail) {
    return new FieldError(FieldError.Type.INVALID, field, Optional.empty(),
        goValue + ": " + detail);
  }

  /** {@code ValidateImmutableField}: the new value must equal the old one. */
  static void immutable(List<FieldError> errs, String field, Value now, Value old) {
    Value a = now == null ? Value.nullValue() : now;
    Value b = old == null ? Value.nullValue() : old;
    if (!Objects.equals(a, b)) {
      errs.add(FieldError.invalid(field, a, IMMUTABLE));
    }
  }

  /** {@code ValidateNonnegativeField}. */
  static void nonNegative(List<FieldError> errs, Value obj, String key, String field) {
    Long v = integer(obj, key);
    if (v != null && v < 0) {
      errs.add(FieldError.invalid(field, Value.of(v), "must be greater than or equal to 0"));
    }
  }

  /** {@code ValidateLabelSelector} of metav1 (a null selector is valid). */
  static void labelSelector(List<FieldError> errs, Value selector, String path) {
    labelSelector(errs, selector, path, false);
  }

  /** Whether a stored selector has a label value kube no longer accepts (update ratcheting). */
  static boolean hasInvalidLabelValue(Value selector) {
    List<FieldError> errs = new ArrayList<>();
    labelSelector(errs, selector, "", false);
    return !errs.isEmpty();
  }

  /**
   * {@code ValidateLabelSelector} with kube's {@code AllowInvalidLabelValueInSelector} option,
   * set on updates of objects whose stored selector already had such values.
   */
  static void labelSelector(List<FieldError> errs, Value selector, String path,
      boolean allowInvalidValues) {
    if (!(selector instanceof MapValue sel)) {
      return;
    }
    errs.addAll(MetaValidation.labels(sel.getOrNull("matchLabels"), path + ".matchLabels"));
    List<Value> exprs = list(sel, "matchExpressions");
    for (int i = 0; i < exprs.size(); i++) {
      String at = path + ".matchExpressions[" + i + "]";
      Value e = exprs.get(i);
      String op = str(e, "operator");
      List<Value> values = list(e, "values");
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

  /** {@code IsValidPortNum}. */
  static List<String> portNum(long port) {
    return port < 1 || port > 65535 ? List.of("must be between 1 and 65535, inclusive")
        : List.of();
  }

  /** {@code IsValidPortName} (an IANA service name). */
  static List<String> portName(String port) {
    List<String> errs = new ArrayList<>();
    if (port.length() > 15) {
      errs.add("must be no more than 15 characters");
    }
    if (!PORT_NAME_CHARSET.matcher(port).matches()) {
      errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if (!port.chars().anyMatch(c -> c >= 'a' && c <= 'z')) {
      errs.add("must contain at least one letter (a-z)");
    }
    if (port.contains("--")) {
      errs.add("must not contain consecutive hyphens");
    }
    if (!port.isEmpty() && (port.startsWith("-") || port.endsWith("-"))) {
      errs.add("must not begin or end with a hyphen");
    }
    return errs;
  }

  /** {@code IsWildcardDNS1123Subdomain}. */
  static List<String> wildcardSubdomain(String value) {
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

  /** {@code IsDomainPrefixedPath}. */
  static void domainPrefixedPath(List<FieldError> errs, String field, String value) {
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

  // Go's %#v of an intstr.IntOrString, as kube prints it in these errors
  static String goIntOrString(Value v) {
    if (v instanceof StringValue s) {
      return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + GoStrings.quote(s.value()) + "}";
    }
    long i = v instanceof IntegerValue n ? n.value() : 0;
    return "intstr.IntOrString{Type:0, IntVal:" + i + ", StrVal:\"\"}";
  }

  /** apps {@code ValidatePositiveIntOrPercent} and {@code IsNotMoreThan100Percent}. */
  static void positiveIntOrPercentMax100(List<FieldError> errs, Value v, String field) {
    if (v instanceof StringValue s) {
      if (!PERCENT.matcher(s.value()).matches()) {
        errs.add(invalidGo(field, goIntOrString(v), LabelValidation.regexError(
            "a valid percent string must be a numeric string followed by an ending '%'",
            "[0-9]+%", "1%", "93%")));
        return;
      }
      String digits = s.value().substring(0, s.value().length() - 1);
      if (digits.length() > 3 || Integer.parseInt(digits) > 100) {
        errs.add(invalidGo(field, goIntOrString(v), "must not be greater than 100%"));
      }
    } else if (v instanceof IntegerValue i && i.value() < 0) {
      errs.add(FieldError.invalid(field, i, "must be greater than or equal to 0"));
    }
  }

  // --- quantities ------------------------------------------------------------------------

  /** The sign of a resource.Quantity (-1, 0, 1), or empty when absent. */
  static Optional<Integer> quantitySign(Value v) {
    if (v instanceof IntegerValue i) {
      return Optional.of(Long.signum(i.value()));
    }
    if (v instanceof FloatValue f) {
      return Optional.of((int) Math.signum(f.value()));
    }
    if (!(v instanceof StringValue s)) {
      return Optional.empty();
    }
    String q = s.value().trim();
    int sign = 1;
    int i = 0;
    if (i < q.length() && (q.charAt(i) == '-' || q.charAt(i) == '+')) {
      sign = q.charAt(i) == '-' ? -1 : 1;
      i++;
    }
    boolean nonZero = false;
    for (; i < q.length(); i++) {
      char c = q.charAt(i);
      if (c >= '1' && c <= '9') {
        nonZero = true;
      } else if (c != '0' && c != '.') {
        break;
      }
    }
    return Optional.of(nonZero ? sign : 0);
  }

  // --- IP addresses: parsed by core IpAddresses; kube's messages for values that are not ---

  static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  static final String INVALID_CIDR =
      "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
}
