package io.apiserver4j.kubeapi.internal.proto;

/** Go's {@code time.Duration} text, which {@code metav1.Duration} uses in JSON. */
final class GoDuration {
  private static final String[] UNITS = {"ns", "us", "µs", "μs", "ms", "s", "m", "h"};
  private static final long[] NANOS = {1L, 1_000L, 1_000L, 1_000L, 1_000_000L,
      1_000_000_000L, 60_000_000_000L, 3_600_000_000_000L};

  private GoDuration() {}

  /** As Go's {@code Duration.String}: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
  static String format(long d) {
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

  /** As Go's {@code time.ParseDuration}, in nanoseconds. */
  static long parse(String s, String path) {
    String in = s;
    int i = 0;
    boolean neg = false;
    if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      neg = s.charAt(i) == '-';
      i++;
    }
    if (s.substring(i).equals("0")) {
      return 0;
    }
    if (i == s.length()) {
      throw invalid(in, path);
    }
    double total = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      if (start == i) {
        throw invalid(in, path);
      }
      double n;
      try {
        n = Double.parseDouble(s.substring(start, i));
      } catch (NumberFormatException e) {
        throw invalid(in, path);
      }
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      String unit = s.substring(unitStart, i);
      long scale = -1;
      for (int u = 0; u < UNITS.length; u++) {
        if (UNITS[u].equals(unit)) {
          scale = NANOS[u];
        }
      }
      if (scale < 0) {
        throw invalid(in, path);
      }
      total += n * scale;
    }
    return (long) (neg ? -total : total);
  }

  private static IllegalArgumentException invalid(String s, String path) {
    return new IllegalArgumentException(path + ": time: invalid duration \"" + s + "\"");
  }
}
