/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.time.Duration;

/**
 * Go's {@code time.ParseDuration} (for the {@code timeout} query parameter, with Go's error
 * texts, because kube-apiserver echoes them) and apimachinery's {@code HumanDuration} (the AGE
 * cells of tables).
 */
public final class GoDurations {
  private GoDurations() {}

  /** Thrown with Go's message, e.g. {@code time: invalid duration "abc"}. */
  public static final class InvalidDurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    InvalidDurationException(String message) {
      super(message);
    }
  }

  /**
   * Parses a Go duration such as {@code 32s}, {@code 1m30s}, {@code 1.5h}, {@code -2ms} or
   * {@code 0}.
   *
   * @throws InvalidDurationException with Go's message when {@code s} is not a duration
   * @param s the text
   * @return the duration
   */
  public static Duration parse(String s) {
    String orig = s;
    int i = 0;
    boolean neg = false;
    if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      neg = s.charAt(i) == '-';
      i++;
    }
    if (s.substring(i).equals("0")) {
      return Duration.ZERO;
    }
    if (i == s.length()) {
      throw invalid(orig);
    }
    // nanoseconds accumulated as a double is exact enough for the ranges a timeout uses; Go
    // overflows past ~292 years, and so do we
    double total = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && Character.isDigit(s.charAt(i))) {
        i++;
      }
      String intPart = s.substring(start, i);
      String fracPart = "";
      if (i < s.length() && s.charAt(i) == '.') {
        i++;
        int fs = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
          i++;
        }
        fracPart = s.substring(fs, i);
      }
      if (intPart.isEmpty() && fracPart.isEmpty()) {
        throw invalid(orig);
      }
      int us = i;
      while (i < s.length() && s.charAt(i) != '.' && !Character.isDigit(s.charAt(i))) {
        i++;
      }
      String unit = s.substring(us, i);
      if (unit.isEmpty()) {
        throw new InvalidDurationException(
            "time: missing unit in duration " + GoStrings.quote(orig));
      }
      double scale;
      switch (unit) {
        case "ns":
          scale = 1;
          break;
        case "us":
        case "\u00b5s":
        case "\u03bcs":
          scale = 1e3;
          break;
        case "ms":
          scale = 1e6;
          break;
        case "s":
          scale = 1e9;
          break;
        case "m":
          scale = 60e9;
          break;
        case "h":
          scale = 3600e9;
          break;
        default:
          throw new InvalidDurationException(
              "time: unknown unit " + GoStrings.quote(unit) + " in duration "
                  + GoStrings.quote(orig));
      }
      double v = intPart.isEmpty() ? 0 : Double.parseDouble(intPart);
      if (!fracPart.isEmpty()) {
        v += Double.parseDouble("0." + fracPart);
      }
      total += v * scale;
      if (total > Long.MAX_VALUE) {
        throw invalid(orig);
      }
    }
    long nanos = (long) total;
    return Duration.ofNanos(neg ? -nanos : nanos);
  }

  private static InvalidDurationException invalid(String s) {
    return new InvalidDurationException("time: invalid duration " + GoStrings.quote(s));
  }


  /**
   * apimachinery's {@code HumanDuration}: {@code 45s}, {@code 3m20s}, {@code 5h}, {@code 2d3h}.
   *
   * @param d the duration
   * @return the text
   */
  public static String human(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = seconds / 3600;
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }

  /**
   * Go's {@code time.Duration.String()} of {@code d} nanoseconds, e.g. {@code 1h2m3.5s}.
   *
   * @param d the nanoseconds
   * @return the text
   */
  public static String format(long d) {
    if (d == 0) {
      return "0s";
    }
    boolean neg = d < 0;
    // Long.MIN_VALUE has no positive twin; work on the unsigned magnitude
    long u = neg ? -d : d;
    StringBuilder sb = new StringBuilder();
    if (Long.compareUnsigned(u, 1_000_000_000L) < 0) {
      String unit;
      long scale;
      if (u < 1_000L) {
        return (neg ? "-" : "") + u + "ns";
      } else if (u < 1_000_000L) {
        unit = "µs";
        scale = 1_000L;
      } else {
        unit = "ms";
        scale = 1_000_000L;
      }
      sb.append(u / scale).append(fraction(u % scale, scale)).append(unit);
    } else {
      long secs = Long.divideUnsigned(u, 1_000_000_000L);
      long frac = Long.remainderUnsigned(u, 1_000_000_000L);
      long h = secs / 3600;
      long m = secs / 60 % 60;
      long s = secs % 60;
      if (h > 0) {
        sb.append(h).append('h');
      }
      if (h > 0 || m > 0) {
        sb.append(m).append('m');
      }
      sb.append(s).append(fraction(frac, 1_000_000_000L)).append('s');
    }
    return (neg ? "-" : "") + sb;
  }

  private static String fraction(long rem, long scale) {
    if (rem == 0) {
      return "";
    }
    StringBuilder digits = new StringBuilder(Long.toString(scale + rem).substring(1));
    while (digits.charAt(digits.length() - 1) == '0') {
      digits.setLength(digits.length() - 1);
    }
    return "." + digits;
  }
}
