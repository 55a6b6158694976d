/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's duration strings, as kube's duration flags read ({@code time.ParseDuration}) and print
 * ({@code Duration.String}) them: a sequence of decimal numbers with units {@code ns},
 * {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m}, {@code h}, like {@code 1m30s}.
 */
final class GoDuration {
  private static final Pattern PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|ms|s|m|h)");
  private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L,
      "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

  private GoDuration() {}

  /** The duration {@code text} spells, or empty when it is not one. */
  static Optional<Duration> parse(String text) {
    String s = text;
    boolean negative = false;
    if (s.startsWith("-") || s.startsWith("+")) {
      negative = s.startsWith("-");
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Optional.of(Duration.ZERO);
    }
    if (s.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = PART.matcher(s);
    int at = 0;
    BigDecimal total = BigDecimal.ZERO;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        return Optional.empty();
      }
      String number = m.group(1);
      if (number.isEmpty() || number.equals(".")) {
        return Optional.empty();
      }
      total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
      at = m.end();
    }
    long nanos = total.longValue();
    return Optional.of(Duration.ofNanos(negative ? -nanos : nanos));
  }

  /** Go's {@code Duration.String} of whole milliseconds or more, e.g. {@code 15s}, {@code 1m30s}. */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long hours = d.toHours();
    long minutes = d.toMinutesPart();
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      sb.append(minutes).append('m');
    }
    long seconds = d.toSecondsPart();
    long millis = d.toMillisPart();
    if (hours == 0 && minutes == 0 && seconds == 0) {
      return sb.append(millis).append("ms").toString();
    }
    sb.append(seconds);
    if (millis > 0) {
      sb.append('.').append(String.format("%03d", millis).replaceAll("0+$", ""));
    }
    return sb.append('s').toString();
  }
}
