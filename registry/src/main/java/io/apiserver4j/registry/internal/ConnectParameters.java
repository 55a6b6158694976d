/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.ConnectCall;
import io.apiserver4j.core.errors.StatusErrors;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The query parameters of a connect request decoded as kube's parameter codec converts
 * {@code url.Values} into its options types: a scalar is its first value, a bool is false only
 * for {@code 0} or {@code false}, a number that does not parse is a 400 with Go's
 * {@code strconv} message, a time is RFC 3339.
 */
public final class ConnectParameters {
  private static final String RFC3339 = "2006-01-02T15:04:05Z07:00";

  private ConnectParameters() {}

  /** kube's {@code Convert_Slice_string_To_bool}. */
  public static boolean bool(ConnectCall call, String name) {
    return call.parameter(name).map(v -> !(v.equals("0") || v.equalsIgnoreCase("false")))
        .orElse(false);
  }

  /** A string parameter, empty when absent. */
  public static String string(ConnectCall call, String name) {
    return call.parameter(name).orElse("");
  }

  /**
   * kube's {@code Convert_Slice_string_To_Pointer_int64}.
   *
   * @throws io.apiserver4j.core.errors.StatusException 400 when the value is no integer
   */
  public static OptionalLong int64(ConnectCall call, String name) {
    Optional<String> v = call.parameter(name);
    if (v.isEmpty()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(parseInt(v.get(), 64));
  }

  /** Go's {@code strconv.ParseInt(s, 10, bits)}, failing as a 400 with its message. */
  public static long parseInt(String s, int bits) {
    try {
      long n = Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
      long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
      long min = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
      if (n > max || n < min) {
        throw StatusErrors.badRequest("strconv.ParseInt: parsing " + quote(s)
            + ": value out of range");
      }
      return n;
    } catch (NumberFormatException e) {
      boolean digits = !s.isEmpty() && s.replaceFirst("^[+-]", "").chars()
          .allMatch(Character::isDigit) && s.replaceFirst("^[+-]", "").length() > 0;
      throw StatusErrors.badRequest("strconv.ParseInt: parsing " + quote(s) + ": "
          + (digits ? "value out of range" : "invalid syntax"));
    }
  }

  /**
   * kube's {@code metav1.Time.UnmarshalQueryParameter}: RFC 3339, empty for an empty value.
   *
   * @throws io.apiserver4j.core.errors.StatusException 400 when the value is no RFC 3339 time
   */
  public static Optional<Instant> time(ConnectCall call, String name) {
    Optional<String> v = call.parameter(name);
    if (v.isEmpty() || v.get().isEmpty() || v.get().equals("null")) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(v.get().toUpperCase(Locale.ROOT)).toInstant());
    } catch (DateTimeParseException e) {
      throw StatusErrors.badRequest("parsing time " + quote(v.get()) + " as " + quote(RFC3339)
          + ": cannot parse " + quote(v.get()) + " as \"2006\"");
    }
  }

  private static String quote(String s) {
    return io.apiserver4j.core.GoStrings.quote(s);
  }
}
