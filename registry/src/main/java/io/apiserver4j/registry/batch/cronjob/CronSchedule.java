/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.cronjob;

import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.GoStrings;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A CronJob's schedule as robfig/cron's {@code ParseStandard} (what kube's
 * {@code validateScheduleFormat} calls) checks it: an optional {@code TZ=}/{@code CRON_TZ=}
 * prefix, a descriptor ({@code @daily}, {@code @every 1h}, ...) or five fields of ranges,
 * steps and names, with robfig/cron's error messages.
 */
final class CronSchedule {
  private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
      "sep", "oct", "nov", "dec"};
  private static final String[] DAYS = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

  private CronSchedule() {}

  /** The error robfig/cron's {@code ParseStandard} gives for {@code spec}, if any. */
  static Optional<String> error(String spec) {
    if (spec.isEmpty()) {
      return Optional.of("empty spec string");
    }
    String s = spec;
    if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
      int space = s.indexOf(' ');
      if (space < 0) {
        return Optional.of("provided bad location " + s.substring(s.indexOf('=') + 1)
            + ": unknown time zone " + s.substring(s.indexOf('=') + 1));
      }
      String zone = s.substring(s.indexOf('=') + 1, space);
      try {
        ZoneId.of(zone);
      } catch (DateTimeException e) {
        return Optional.of("provided bad location " + zone + ": unknown time zone " + zone);
      }
      s = s.substring(space).trim();
    }
    if (s.startsWith("@")) {
      return descriptorError(s);
    }
    String[] fields = s.trim().isEmpty() ? new String[0] : s.trim().split("\\s+");
    if (fields.length != 5) {
      return Optional.of("expected exactly 5 fields, found " + fields.length + ": ["
          + String.join(" ", fields) + "]");
    }
    long[][] bounds = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}};
    String[][] names = {null, null, null, MONTHS, DAYS};
    for (int i = 0; i < 5; i++) {
      for (String range : fields[i].split(",", -1)) {
        Optional<String> err = rangeError(range, bounds[i][0], bounds[i][1], names[i]);
        if (err.isPresent()) {
          return err;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> descriptorError(String s) {
    if (List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")
        .contains(s)) {
      return Optional.empty();
    }
    String every = "@every ";
    if (s.startsWith(every)) {
      String d = s.substring(every.length());
      try {
        GoDurations.parse(d);
        return Optional.empty();
      } catch (RuntimeException e) {
        return Optional.of("failed to parse duration " + s + ": " + e.getMessage());
      }
    }
    return Optional.of("unrecognized descriptor: " + s);
  }

  private static Optional<String> rangeError(String expr, long min, long max, String[] names) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    boolean single = lowAndHigh.length == 1;
    long start;
    long end;
    long step;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = min;
      end = max;
    } else {
      Object a = intOrName(lowAndHigh[0], names);
      if (a instanceof String err) {
        return Optional.of(err);
      }
      start = (Long) a;
      if (lowAndHigh.length == 1) {
        end = start;
      } else if (lowAndHigh.length == 2) {
        Object b = intOrName(lowAndHigh[1], names);
        if (b instanceof String err) {
          return Optional.of(err);
        }
        end = (Long) b;
      } else {
        return Optional.of("too many hyphens: " + expr);
      }
    }
    if (rangeAndStep.length == 1) {
      step = 1;
    } else if (rangeAndStep.length == 2) {
      Object st = parseInt(rangeAndStep[1]);
      if (st instanceof String err) {
        return Optional.of(err);
      }
      step = (Long) st;
      if (single) {
        end = max;
      }
    } else {
      return Optional.of("too many slashes: " + expr);
    }
    if (start < min) {
      return Optional.of("beginning of range (" + start + ") below minimum (" + min + "): "
          + expr);
    }
    if (end > max) {
      return Optional.of("end of range (" + end + ") above maximum (" + max + "): " + expr);
    }
    if (start > end) {
      return Optional.of("beginning of range (" + start + ") beyond end of range (" + end
          + "): " + expr);
    }
    if (step == 0) {
      return Optional.of("step of range should be a positive number: " + expr);
    }
    return Optional.empty();
  }

  // a Long, or the error message
  private static Object intOrName(String expr, String[] names) {
    if (names != null) {
      int i = Arrays.asList(names).indexOf(expr.toLowerCase(Locale.ROOT));
      if (i >= 0) {
        return names == MONTHS ? (long) i + 1 : (long) i;
      }
    }
    return parseInt(expr);
  }

  // Go's strconv.Atoi and robfig/cron's mustParseInt
  private static Object parseInt(String expr) {
    String digits = expr.startsWith("+") || expr.startsWith("-") ? expr.substring(1) : expr;
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return "failed to parse int from " + expr + ": strconv.Atoi: parsing "
          + GoStrings.quote(expr) + ": invalid syntax";
    }
    long n;
    try {
      n = Long.parseLong(expr);
    } catch (NumberFormatException e) {
      return "failed to parse int from " + expr + ": strconv.Atoi: parsing "
          + GoStrings.quote(expr) + ": value out of range";
    }
    if (n < 0) {
      return "negative number (" + n + ") not allowed: " + expr;
    }
    return n;
  }
}
