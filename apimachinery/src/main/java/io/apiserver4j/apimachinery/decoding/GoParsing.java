/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.GoStrings;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * The parsers behind kube's Go types that decode from strings, with Go's error texts:
 * {@code encoding/base64} (for {@code []byte}), {@code resource.ParseQuantity} and
 * {@code time.Parse} with the layouts of {@code metav1.Time} and {@code metav1.MicroTime}.
 */
public final class GoParsing {
  private GoParsing() {}

  /** apimachinery's {@code resource.ErrFormatWrong}. */
  public static final String QUANTITY_FORMAT = "quantities must match the regular expression "
      + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  /** apimachinery's {@code resource.ErrSuffix}. */
  public static final String QUANTITY_SUFFIX = "unable to parse quantity's suffix";

  /**
   * Go's {@code time.RFC3339} layout, {@code metav1.Time}'s.
   */
  public static final String RFC3339 = "2006-01-02T15:04:05Z07:00";
  /**
   * {@code metav1.MicroTime}'s layout.
   */
  public static final String RFC3339_MICRO = "2006-01-02T15:04:05.000000Z07:00";

  // ---- base64 ------------------------------------------------------------------------------

  /**
   * Go's {@code base64.StdEncoding.Decode} of {@code s}'s UTF-8 bytes: the decoded bytes, or
   * its {@code CorruptInputError} text ({@code illegal base64 data at input byte N}) in
   * {@code error[0]}. Newlines are skipped and padding is required, as in Go.
   *
   * @param s the base64 text
   * @param error a one-element array that receives the error text
   * @return the bytes, or null on error
   */
  public static byte[] base64(String s, String[] error) {
    byte[] src = s.getBytes(StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(src.length * 3 / 4);
    int si = 0;
    while (true) {
      int[] dbuf = new int[4];
      int dlen = 4;
      boolean end = false;
      for (int j = 0; j < 4; j++) {
        if (si == src.length) {
          if (j == 0) {
            return out.toByteArray();
          }
          error[0] = corrupt(si - j);
          return null;
        }
        int in = src[si] & 0xff;
        si++;
        int v = decode(in);
        if (v >= 0) {
          dbuf[j] = v;
          continue;
        }
        if (in == '\n' || in == '\r') {
          j--;
          continue;
        }
        if (in != '=') {
          error[0] = corrupt(si - 1);
          return null;
        }
        if (j == 0 || j == 1) {
          error[0] = corrupt(si - 1);
          return null;
        }
        if (j == 2) {
          while (si < src.length && (src[si] == '\n' || src[si] == '\r')) {
            si++;
          }
          if (si == src.length) {
            error[0] = corrupt(src.length);
            return null;
          }
          if (src[si] != '=') {
            error[0] = corrupt(si - 1);
            return null;
          }
          si++;
        }
        while (si < src.length && (src[si] == '\n' || src[si] == '\r')) {
          si++;
        }
        if (si < src.length) {
          error[0] = corrupt(si);
          return null;
        }
        dlen = j;
        end = true;
        break;
      }
      int val = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3];
      out.write(val >> 16);
      if (dlen >= 3) {
        out.write(val >> 8);
      }
      if (dlen == 4) {
        out.write(val);
      }
      if (end) {
        return out.toByteArray();
      }
    }
  }

  private static int decode(int c) {
    if (c >= 'A' && c <= 'Z') {
      return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
      return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
      return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  }

  private static String corrupt(int offset) {
    return "illegal base64 data at input byte " + offset;
  }

  /**
   * Go's {@code base64.StdEncoding.EncodeToString}.
   *
   * @param b the bytes
   * @return the padded base64 text
   */
  public static String base64Encode(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  // ---- resource.Quantity -------------------------------------------------------------------

  /**
   * What {@code resource.ParseQuantity} says of {@code str}: null when it parses, else its
   * error text. Only the grammar and the suffix are checked; the value is not normalized.
   *
   * @param str the quantity text
   * @return null, or the error text
   */
  public static String quantityError(String str) {
    if (str.isEmpty()) {
      return QUANTITY_FORMAT;
    }
    if (str.equals("0")) {
      return null;
    }
    int pos = 0;
    int end = str.length();
    if (str.charAt(0) == '-' || str.charAt(0) == '+') {
      pos++;
    }
    while (pos < end && str.charAt(pos) == '0') {
      pos++;
    }
    if (pos >= end) {
      return null;
    }
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos >= end) {
      return null;
    }
    if (str.charAt(pos) == '.') {
      pos++;
      while (pos < end && isDigit(str.charAt(pos))) {
        pos++;
      }
      if (pos >= end) {
        return null;
      }
    }
    int suffixStart = pos;
    while (pos < end && "eEinumkKMGTP".indexOf(str.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos < end) {
      return QUANTITY_FORMAT;
    }
    return validSuffix(str.substring(suffixStart)) ? null : QUANTITY_SUFFIX;
  }

  /**
   * How kube writes back a quantity that parsed ({@code Quantity.MarshalJSON}): the string as
   * given when {@code ParseQuantity} found it canonical already (its fast path), else the
   * canonical form: {@code 0.5} is {@code 500m}, {@code 1.5k} is {@code 1500}, {@code 2048Ki}
   * is {@code 2Mi}; values are rounded up to a nano unit, binary ones capped at 2^63-1.
   *
   * @param str a quantity that parses
   * @return the canonical text
   */
  public static String canonicalQuantity(String str) {
    if (str.equals("0")) {
      return str;
    }
    boolean positive = true;
    int pos = 0;
    int end = str.length();
    if (str.charAt(0) == '-' || str.charAt(0) == '+') {
      positive = str.charAt(0) == '+';
      pos++;
    }
    while (pos < end && str.charAt(pos) == '0') {
      pos++;
    }
    int numStart = pos;
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    String num = str.substring(numStart, pos);
    if (num.isEmpty()) {
      num = "0";
    }
    String denom = "";
    if (pos < end && str.charAt(pos) == '.') {
      int d = ++pos;
      while (pos < end && isDigit(str.charAt(pos))) {
        pos++;
      }
      denom = str.substring(d, pos);
    }
    String suffix = str.substring(pos);
    int base = 10;
    int exponent;
    char format; // 'S' DecimalSI, 'B' BinarySI, 'E' DecimalExponent
    int dec = "num kMGTPE".indexOf(suffix.isEmpty() ? ' ' : suffix.length() == 1
        ? suffix.charAt(0) : '?');
    if (suffix.isEmpty()) {
      exponent = 0;
      format = 'S';
    } else if (suffix.length() == 1 && dec >= 0) {
      exponent = (dec - 3) * 3;
      format = 'S';
    } else if (suffix.length() == 2 && suffix.charAt(1) == 'i'
        && "KMGTPE".indexOf(suffix.charAt(0)) >= 0) {
      base = 2;
      exponent = ("KMGTPE".indexOf(suffix.charAt(0)) + 1) * 10;
      format = 'B';
    } else {
      exponent = (int) (long) parseGoInt64(suffix.substring(1));
      format = 'E';
    }
    String shifted = num + denom;
    if (format != 'B') {
      int precision = 18 - (num.length() + denom.length());
      int scale = exponent - denom.length();
      if (precision >= 0 && scale >= -9 && parseGoInt64(shifted) != null && scale % 3 == 0
          && !shifted.endsWith("000") && shifted.charAt(0) != '0') {
        return str;
      }
    } else if (denom.isEmpty()) {
      int precision = 15 - num.length() - (int) ((float) exponent * 3 / 10) - 1;
      Long value = parseGoInt64(shifted);
      if (precision >= 0 && value != null && exponent % 10 == 0 && (value & 0x07) != 0
          && multiplyFits(value, exponent)) {
        return str;
      }
    }
    java.math.BigDecimal amount = new java.math.BigDecimal(num + (denom.isEmpty() ? ""
        : "." + denom));
    amount = base == 10 ? amount.scaleByPowerOfTen(exponent)
        : amount.multiply(new java.math.BigDecimal(java.math.BigInteger.ONE.shiftLeft(exponent)));
    if (amount.signum() != 0 && amount.scale() > 9) {
      // below a nano unit it rounds up to one; checked first, so that a tiny exponent
      // (1e-2000000000) costs nothing
      amount = amount.precision() - amount.scale() < -9
          ? java.math.BigDecimal.valueOf(amount.signum(), 9)
          : amount.setScale(9, java.math.RoundingMode.UP);
    }
    java.math.BigDecimal max = new java.math.BigDecimal(Long.MAX_VALUE);
    if (format == 'B' && amount.compareTo(max) > 0) {
      amount = max;
    }
    if (format == 'B' && amount.compareTo(java.math.BigDecimal.ONE) < 0 && amount.signum() > 0) {
      format = 'S';
    }
    if (amount.signum() == 0) {
      return "0";
    }
    String sign = positive ? "" : "-";
    if (format == 'B') {
      boolean integral = amount.stripTrailingZeros().scale() <= 0;
      if (amount.compareTo(java.math.BigDecimal.valueOf(1024)) < 0 || !integral) {
        format = 'S';
      } else {
        java.math.BigInteger v = amount.toBigIntegerExact();
        java.math.BigInteger k = java.math.BigInteger.valueOf(1024);
        int times = 0;
        while (v.compareTo(k) >= 0 && v.mod(k).signum() == 0) {
          v = v.divide(k);
          times++;
        }
        String[] binary = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        return sign + v + (times < binary.length ? binary[times] : "");
      }
    }
    java.math.BigDecimal stripped = amount.stripTrailingZeros();
    java.math.BigInteger mantissa = stripped.unscaledValue();
    int exp = -stripped.scale();
    while (exp % 3 != 0) {
      mantissa = mantissa.multiply(java.math.BigInteger.TEN);
      exp--;
    }
    String out;
    if (format == 'E') {
      out = exp == 0 ? "" : "e" + exp;
    } else {
      int index = exp / 3 + 3;
      // beyond the table Go finds no suffix and writes the mantissa alone
      out = index >= 0 && index < 10 && index != 3 ? String.valueOf("num kMGTPE".charAt(index))
          : "";
    }
    return sign + mantissa + out;
  }

  private static boolean multiplyFits(long value, int exponent) {
    return exponent < 63 && Math.abs(value) <= (Long.MAX_VALUE >> exponent);
  }

  private static boolean validSuffix(String s) {
    switch (s) {
      case "": case "n": case "u": case "m": case "k": case "M": case "G": case "T": case "P":
      case "E": case "Ki": case "Mi": case "Gi": case "Ti": case "Pi": case "Ei":
        return true;
      default:
        break;
    }
    if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
      return parseGoInt64(s.substring(1)) != null;
    }
    return false;
  }

  /**
   * Go's {@code strconv.ParseInt(s, 10, 64)}.
   *
   * @param s the text
   * @return the integer, or null when it fails
   */
  public static Long parseGoInt64(String s) {
    int i = 0;
    if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      i = 1;
    }
    if (i == s.length()) {
      return null;
    }
    for (int k = i; k < s.length(); k++) {
      if (!isDigit(s.charAt(k))) {
        return null;
      }
    }
    try {
      return Long.parseLong(s.charAt(0) == '+' ? s.substring(1) : s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  // ---- time.Parse --------------------------------------------------------------------------

  /** A parsed time, or Go's {@code time.ParseError} text. */
  public record ParsedTime(OffsetDateTime time, String error) {}

  /**
   * Go's {@code time.Parse(layout, value)} for {@link #RFC3339} and {@link #RFC3339_MICRO}, with
   * its error texts ({@code parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x"
   * as "2006"}, {@code ...: month out of range}, {@code ...: extra text: "..."}).
   *
   * @param layout {@link #RFC3339} or {@link #RFC3339_MICRO}
   * @param value the text
   * @return the time, or Go's error text
   */
  public static ParsedTime parseTime(String layout, String value) {
    boolean micro = layout.equals(RFC3339_MICRO);
    String v = value;
    // year
    if (v.length() < 4 || !isDigit(v.charAt(0))) {
      return bad(layout, value, "2006", v);
    }
    Long yearL = parseGoInt64(v.substring(0, 4));
    if (yearL == null || v.charAt(0) == '+' || v.charAt(0) == '-') {
      return bad(layout, value, "2006", v);
    }
    int year = (int) (long) yearL;
    v = v.substring(4);
    if (!v.startsWith("-")) {
      return bad(layout, value, "-", v);
    }
    v = v.substring(1);
    int[] num = getnum(v, true);
    if (num == null) {
      return bad(layout, value, "01", v);
    }
    int month = num[0];
    v = v.substring(num[1]);
    if (month <= 0 || month > 12) {
      return range(value, "month");
    }
    if (!v.startsWith("-")) {
      return bad(layout, value, "-", v);
    }
    v = v.substring(1);
    num = getnum(v, true);
    if (num == null) {
      return bad(layout, value, "02", v);
    }
    int day = num[0];
    v = v.substring(num[1]);
    if (!v.startsWith("T")) {
      return bad(layout, value, "T", v);
    }
    v = v.substring(1);
    num = getnum(v, false);
    if (num == null) {
      return bad(layout, value, "15", v);
    }
    int hour = num[0];
    v = v.substring(num[1]);
    if (hour >= 24) {
      return range(value, "hour");
    }
    if (!v.startsWith(":")) {
      return bad(layout, value, ":", v);
    }
    v = v.substring(1);
    num = getnum(v, true);
    if (num == null) {
      return bad(layout, value, "04", v);
    }
    int minute = num[0];
    v = v.substring(num[1]);
    if (minute >= 60) {
      return range(value, "minute");
    }
    if (!v.startsWith(":")) {
      return bad(layout, value, ":", v);
    }
    v = v.substring(1);
    num = getnum(v, true);
    if (num == null) {
      return bad(layout, value, "05", v);
    }
    int second = num[0];
    v = v.substring(num[1]);
    if (second >= 60) {
      return range(value, "second");
    }
    int nanos = 0;
    if (micro) {
      // the layout's ".000000" takes exactly seven bytes: a separator and six digits
      if (v.length() < 7) {
        return bad(layout, value, ".000000", v);
      }
      if (v.charAt(0) != '.' && v.charAt(0) != ',') {
        return bad(layout, value, ".000000", v);
      }
      Long frac = parseGoInt64(v.substring(1, 7));
      if (frac == null || v.charAt(1) == '+' || v.charAt(1) == '-') {
        return bad(layout, value, ".000000", v);
      }
      nanos = (int) (frac * 1000);
      v = v.substring(7);
    } else if (v.length() >= 2 && (v.charAt(0) == '.' || v.charAt(0) == ',')
        && isDigit(v.charAt(1))) {
      // a fractional second the layout does not name is accepted after the seconds
      int n = 2;
      while (n < v.length() && isDigit(v.charAt(n))) {
        n++;
      }
      String digits = v.substring(1, Math.min(n, 10));
      nanos = Integer.parseInt((digits + "000000000").substring(0, 9));
      v = v.substring(n);
    }
    ZoneOffset offset;
    if (v.startsWith("Z")) {
      v = v.substring(1);
      offset = ZoneOffset.UTC;
    } else {
      if (v.length() < 6 || v.charAt(3) != ':') {
        return bad(layout, value, "Z07:00", v);
      }
      int[] hh = getnum(v.substring(1, 3), true);
      int[] mm = getnum(v.substring(4, 6), true);
      char sign = v.charAt(0);
      if (hh == null || mm == null || (sign != '+' && sign != '-')) {
        return bad(layout, value, "Z07:00", v);
      }
      if (hh[0] > 24) {
        return range(value, "time zone offset hour");
      }
      if (mm[0] > 60) {
        return range(value, "time zone offset minute");
      }
      int seconds = (hh[0] * 60 + mm[0]) * 60;
      v = v.substring(6);
      offset = seconds > 18 * 3600 ? null : ZoneOffset.ofTotalSeconds(sign == '-' ? -seconds
          : seconds);
      if (offset == null) {
        // beyond what java.time represents; Go accepts it, kube then stores the instant
        return new ParsedTime(null, "parsing time " + GoStrings.quote(value)
            + ": time zone offset hour out of range");
      }
    }
    if (!v.isEmpty()) {
      return new ParsedTime(null, "parsing time " + GoStrings.quote(value) + ": extra text: "
          + GoStrings.quote(v));
    }
    if (day < 1 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
      return range(value, "day");
    }
    return new ParsedTime(OffsetDateTime.of(year, month, day, hour, minute, second, nanos,
        offset), null);
  }

  /**
   * Whether {@code v} is a valid time already in the form kube writes
   * ({@code 2006-01-02T15:04:05Z}, or with six fraction digits for MicroTime): the common case,
   * checked without parsing.
   *
   * @param v the text
   * @param micro whether the field is a MicroTime
   * @return true when already canonical
   */
  public static boolean isCanonicalTime(String v, boolean micro) {
    int len = micro ? 27 : 20;
    if (v.length() != len || v.charAt(len - 1) != 'Z' || v.charAt(4) != '-' || v.charAt(7) != '-'
        || v.charAt(10) != 'T' || v.charAt(13) != ':' || v.charAt(16) != ':'
        || (micro && v.charAt(19) != '.')) {
      return false;
    }
    for (int i = 0; i < len - 1; i++) {
      if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && i != 19 && !isDigit(v.charAt(i))) {
        return false;
      }
    }
    int year = Integer.parseInt(v, 0, 4, 10);
    int month = Integer.parseInt(v, 5, 7, 10);
    int day = Integer.parseInt(v, 8, 10, 10);
    return month >= 1 && month <= 12 && day >= 1
        && day <= java.time.YearMonth.of(year, month).lengthOfMonth()
        && Integer.parseInt(v, 11, 13, 10) < 24 && Integer.parseInt(v, 14, 16, 10) < 60
        && Integer.parseInt(v, 17, 19, 10) < 60;
  }

  // Go's getnum: one or two digits, exactly two when fixed; {value, length} or null
  private static int[] getnum(String s, boolean fixed) {
    if (s.isEmpty() || !isDigit(s.charAt(0))) {
      return null;
    }
    if (s.length() < 2 || !isDigit(s.charAt(1))) {
      return fixed ? null : new int[] {s.charAt(0) - '0', 1};
    }
    return new int[] {(s.charAt(0) - '0') * 10 + (s.charAt(1) - '0'), 2};
  }

  private static ParsedTime bad(String layout, String value, String layoutElem, String rest) {
    return new ParsedTime(null, "parsing time " + GoStrings.quote(value) + " as "
        + GoStrings.quote(layout) + ": cannot parse " + GoStrings.quote(rest) + " as "
        + GoStrings.quote(layoutElem));
  }

  private static ParsedTime range(String value, String what) {
    return new ParsedTime(null, "parsing time " + GoStrings.quote(value) + ": " + what
        + " out of range");
  }

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'");

  /**
   * How kube writes a time back: {@code metav1.Time} in UTC to the second, MicroTime to µs.
   *
   * @param t the time
   * @param micro whether the field is a MicroTime
   * @return the text
   */
  public static String formatTime(OffsetDateTime t, boolean micro) {
    OffsetDateTime utc = t.withOffsetSameInstant(ZoneOffset.UTC);
    return micro ? MICROS.format(utc) : SECONDS.format(utc);
  }
}
