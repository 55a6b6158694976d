/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.common.values.CelByteString;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * Strings kube hands to CEL as other types, by the schema's format: {@code date} and
 * {@code date-time} as timestamps, {@code duration} as durations (Go's time.ParseDuration
 * syntax), {@code byte} as bytes.
 */
final class KubeScalars {
  private KubeScalars() {}

  static Object convert(String s, CelObjectType.Scalar scalar) {
    switch (scalar) {
      case TIMESTAMP:
        return timestamp(s);
      case DURATION:
        return duration(s);
      case BYTES:
        try {
          return CelByteString.of(Base64.getDecoder().decode(s));
        } catch (IllegalArgumentException e) {
          throw new CelException(CelException.Kind.EVALUATION, "illegal base64 data: " + s, e);
        }
      default:
        return s;
    }
  }

  static Instant timestamp(String s) {
    try {
      if (s.length() == 10) {
        return LocalDate.parse(s).atStartOfDay().toInstant(ZoneOffset.UTC);
      }
      String t = s.length() > 10 && (s.charAt(10) == 't' || s.charAt(10) == ' ')
          ? s.substring(0, 10) + "T" + s.substring(11) : s;
      if (t.endsWith("z")) {
        t = t.substring(0, t.length() - 1) + "Z";
      }
      return OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException e) {
      throw new CelException(CelException.Kind.EVALUATION,
          "parsing time \"" + s + "\" as a date-time failed", e);
    }
  }

  /** Go's time.ParseDuration. */
  static Duration duration(String s) {
    String in = s;
    boolean negative = false;
    if (!in.isEmpty() && (in.charAt(0) == '-' || in.charAt(0) == '+')) {
      negative = in.charAt(0) == '-';
      in = in.substring(1);
    }
    if (in.equals("0")) {
      return Duration.ZERO;
    }
    if (in.isEmpty()) {
      throw invalid(s);
    }
    BigDecimal nanos = BigDecimal.ZERO;
    int i = 0;
    while (i < in.length()) {
      int start = i;
      while (i < in.length() && (Character.isDigit(in.charAt(i)) || in.charAt(i) == '.')) {
        i++;
      }
      String number = in.substring(start, i);
      if (number.isEmpty() || number.equals(".")) {
        throw invalid(s);
      }
      int unitStart = i;
      while (i < in.length() && !Character.isDigit(in.charAt(i)) && in.charAt(i) != '.') {
        i++;
      }
      long scale;
      switch (in.substring(unitStart, i)) {
        case "ns" -> scale = 1L;
        case "us", "µs", "μs" -> scale = 1_000L;
        case "ms" -> scale = 1_000_000L;
        case "s" -> scale = 1_000_000_000L;
        case "m" -> scale = 60_000_000_000L;
        case "h" -> scale = 3_600_000_000_000L;
        default -> throw invalid(s);
      }
      nanos = nanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(scale)));
    }
    long n = nanos.longValue();
    return Duration.ofNanos(negative ? -n : n);
  }

  private static CelException invalid(String s) {
    return new CelException(CelException.Kind.EVALUATION,
        "time: invalid duration \"" + s + "\"", null);
  }
}
