/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.cronjob;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/**
 * A schedule as robfig/cron v3's {@code ParseStandard} reads it (what kube's cronjob controller
 * uses): an optional {@code TZ=}/{@code CRON_TZ=} location, then a descriptor
 * ({@code @yearly}, {@code @annually}, {@code @monthly}, {@code @weekly}, {@code @daily},
 * {@code @midnight}, {@code @hourly}, {@code @every <duration>}) or five fields (minute, hour,
 * day of month, month, day of week) of lists, ranges, steps and names. {@link #next} is
 * robfig/cron's {@code Next}: the first matching second after a time, in the schedule's
 * location (UTC when none is given, as kube-controller-manager runs), or empty when none
 * comes within five years. Immutable.
 */
final class CronSchedule {
  private static final long STAR = 1L << 63;
  private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul",
      "aug", "sep", "oct", "nov", "dec"};
  private static final String[] DAYS = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

  private final long minute;
  private final long hour;
  private final long dom;
  private final long month;
  private final long dow;
  private final ZoneId zone;
  /** A constant delay ({@code @every}), or null for a field schedule. */
  private final Duration every;

  private CronSchedule(long minute, long hour, long dom, long month, long dow, ZoneId zone,
      Duration every) {
    this.minute = minute;
    this.hour = hour;
    this.dom = dom;
    this.month = month;
    this.dow = dow;
    this.zone = zone;
    this.every = every;
  }

  /**
   * Parses {@code spec}, in {@code defaultZone} unless it names its own.
   *
   * @throws IllegalArgumentException with robfig/cron's message for a bad spec
   */
  static CronSchedule parse(String spec, ZoneId defaultZone) {
    if (spec.isEmpty()) {
      throw new IllegalArgumentException("empty spec string");
    }
    String s = spec;
    ZoneId zone = defaultZone;
    if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
      int space = s.indexOf(' ');
      String name = s.substring(s.indexOf('=') + 1, space < 0 ? s.length() : space);
      try {
        zone = ZoneId.of(name);
      } catch (DateTimeException e) {
        throw new IllegalArgumentException("provided bad location " + name
            + ": unknown time zone " + name);
      }
      s = space < 0 ? "" : s.substring(space).trim();
    }
    if (s.startsWith("@")) {
      return descriptor(s, zone);
    }
    String[] f = s.trim().isEmpty() ? new String[0] : s.trim().split("\\s+");
    if (f.length != 5) {
      throw new IllegalArgumentException("expected exactly 5 fields, found " + f.length + ": ["
          + String.join(" ", f) + "]");
    }
    return new CronSchedule(field(f[0], 0, 59, null), field(f[1], 0, 23, null),
        field(f[2], 1, 31, null), field(f[3], 1, 12, MONTHS), field(f[4], 0, 6, DAYS), zone,
        null);
  }

  private static CronSchedule descriptor(String s, ZoneId zone) {
    long all = STAR;
    switch (s) {
      case "@yearly", "@annually":
        return new CronSchedule(1, 1, 1 << 1, 1 << 1, bits(0, 6, 1) | all, zone, null);
      case "@monthly":
        return new CronSchedule(1, 1, 1 << 1, bits(1, 12, 1) | all, bits(0, 6, 1) | all, zone,
            null);
      case "@weekly":
        return new CronSchedule(1, 1, bits(1, 31, 1) | all, bits(1, 12, 1) | all, 1, zone,
            null);
      case "@daily", "@midnight":
        return new CronSchedule(1, 1, bits(1, 31, 1) | all, bits(1, 12, 1) | all,
            bits(0, 6, 1) | all, zone, null);
      case "@hourly":
        return new CronSchedule(1, bits(0, 23, 1) | all, bits(1, 31, 1) | all,
            bits(1, 12, 1) | all, bits(0, 6, 1) | all, zone, null);
      default:
        break;
    }
    if (s.startsWith("@every ")) {
      String d = s.substring("@every ".length());
      Duration delay;
      try {
        delay = Duration.ofNanos(io.apiserver4j.core.GoDurations.parse(d).toNanos());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("failed to parse duration " + s + ": time: invalid "
            + "duration \"" + d + "\"");
      }
      // robfig/cron's Every: at least a second, whole seconds
      if (delay.compareTo(Duration.ofSeconds(1)) < 0) {
        delay = Duration.ofSeconds(1);
      }
      delay = Duration.ofSeconds(delay.getSeconds());
      return new CronSchedule(0, 0, 0, 0, 0, zone, delay);
    }
    throw new IllegalArgumentException("unrecognized descriptor: " + s);
  }

  private static long field(String text, int min, int max, String[] names) {
    long bits = 0;
    for (String expr : text.split(",", -1)) {
      bits |= range(expr, min, max, names);
    }
    return bits;
  }

  /** robfig/cron's {@code getRange}. */
  private static long range(String expr, int min, int max, String[] names) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    boolean single = lowAndHigh.length == 1;
    int start;
    int end;
    long extra = 0;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = min;
      end = max;
      extra = STAR;
    } else {
      start = value(lowAndHigh[0], names);
      switch (lowAndHigh.length) {
        case 1:
          end = start;
          break;
        case 2:
          end = value(lowAndHigh[1], names);
          break;
        default:
          throw new IllegalArgumentException("too many hyphens: " + expr);
      }
    }
    int step;
    switch (rangeAndStep.length) {
      case 1:
        step = 1;
        break;
      case 2:
        step = number(rangeAndStep[1]);
        if (single) {
          end = max;
        }
        if (step > 1) {
          extra = 0;
        }
        break;
      default:
        throw new IllegalArgumentException("too many slashes: " + expr);
    }
    if (start < min) {
      throw new IllegalArgumentException("beginning of range (" + start + ") below minimum ("
          + min + "): " + expr);
    }
    if (end > max) {
      throw new IllegalArgumentException("end of range (" + end + ") above maximum (" + max
          + "): " + expr);
    }
    if (start > end) {
      throw new IllegalArgumentException("beginning of range (" + start
          + ") beyond end of range (" + end + "): " + expr);
    }
    if (step == 0) {
      throw new IllegalArgumentException("step of range should be a positive number: " + expr);
    }
    return bits(start, end, step) | extra;
  }

  private static int value(String text, String[] names) {
    if (names != null) {
      String lower = text.toLowerCase(Locale.ROOT);
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(lower)) {
          return names == MONTHS ? i + 1 : i;
        }
      }
    }
    return number(text);
  }

  private static int number(String text) {
    try {
      int n = Integer.parseInt(text);
      if (n < 0) {
        throw new IllegalArgumentException("negative number (" + n + ") not allowed: " + text);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("failed to parse int from " + text + ": strconv.Atoi: "
          + "parsing \"" + text + "\": invalid syntax");
    }
  }

  private static long bits(int min, int max, int step) {
    long b = 0;
    for (int i = min; i <= max; i += step) {
      b |= 1L << i;
    }
    return b;
  }

  /** The schedule's location. */
  ZoneId zone() {
    return zone;
  }

  /** robfig/cron's {@code Next}: the first activation after {@code after}, if one comes. */
  Optional<Instant> next(Instant after) {
    if (every != null) {
      return Optional.of(after.minusNanos(after.getNano()).plus(every));
    }
    ZonedDateTime t = after.atZone(zone);
    // the upcoming whole second
    t = t.plusSeconds(1).withNano(0);
    boolean added = false;
    int yearLimit = t.getYear() + 5;
    wrap:
    while (true) {
      if (t.getYear() > yearLimit) {
        return Optional.empty();
      }
      while ((1L << t.getMonthValue() & month) == 0) {
        if (!added) {
          added = true;
          t = ZonedDateTime.of(t.getYear(), t.getMonthValue(), 1, 0, 0, 0, 0, zone);
        }
        t = t.plusMonths(1);
        if (t.getMonthValue() == 1) {
          continue wrap;
        }
      }
      while (!dayMatches(t)) {
        if (!added) {
          added = true;
          t = ZonedDateTime.of(t.toLocalDate().atStartOfDay(), zone);
        }
        t = t.plusDays(1);
        // a DST change moved midnight: back to it
        if (t.getHour() != 0) {
          t = t.getHour() > 12 ? t.plusHours(24 - t.getHour()) : t.minusHours(t.getHour());
        }
        if (t.getDayOfMonth() == 1) {
          continue wrap;
        }
      }
      while ((1L << t.getHour() & hour) == 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.HOURS);
        }
        t = t.plusHours(1);
        if (t.getHour() == 0) {
          continue wrap;
        }
      }
      while ((1L << t.getMinute() & minute) == 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.MINUTES);
        }
        t = t.plusMinutes(1);
        if (t.getMinute() == 0) {
          continue wrap;
        }
      }
      // ParseStandard's seconds field is 0
      while (t.getSecond() != 0) {
        if (!added) {
          added = true;
          t = t.truncatedTo(ChronoUnit.SECONDS);
        }
        t = t.plusSeconds(1);
        if (t.getSecond() == 0) {
          continue wrap;
        }
      }
      return Optional.of(t.toInstant());
    }
  }

  private boolean dayMatches(ZonedDateTime t) {
    boolean domMatch = (1L << t.getDayOfMonth() & dom) != 0;
    boolean dowMatch = (1L << (t.getDayOfWeek().getValue() % 7) & dow) != 0;
    if ((dom & STAR) != 0 || (dow & STAR) != 0) {
      return domMatch && dowMatch;
    }
    return domMatch || dowMatch;
  }

  /** UTC, kube-controller-manager's location for a schedule without a time zone. */
  static final ZoneId UTC = ZoneOffset.UTC;
}
