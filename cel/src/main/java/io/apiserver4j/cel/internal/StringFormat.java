/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code format} function of cel-go's strings extension ({@code '%d %s'.format([1, 'a'])}),
 * which kube's CEL environment has and cel-java's lacks: the verbs {@code %s %d %f %e %o %b %x
 * %X} and {@code %%}, with an optional precision for {@code %f} and {@code %e}, formatted as
 * cel-go formats them.
 */
final class StringFormat {
  private static final String SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

  private StringFormat() {}

  static void add(CelBuilder b) {
    b.addFunctionDeclarations(CelFunctionDecl.newFunctionDeclaration("format",
        // the arguments may be of mixed types, which cel-java would not type as list(dyn)
        CelOverloadDecl.newMemberOverload("string_format", SimpleType.STRING, SimpleType.STRING,
            SimpleType.DYN)));
    b.addFunctionBindings(CelFunctionBinding.from("string_format", String.class, List.class,
        StringFormat::format));
  }

  static String format(String f, List<?> args) throws CelEvaluationException {
    StringBuilder out = new StringBuilder();
    int next = 0;
    for (int i = 0; i < f.length(); i++) {
      char c = f.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      i++;
      if (i >= f.length()) {
        throw new CelEvaluationException("could not parse formatting clause: unexpected end of"
            + " string");
      }
      if (f.charAt(i) == '%') {
        out.append('%');
        continue;
      }
      int precision = -1;
      if (f.charAt(i) == '.') {
        int start = ++i;
        while (i < f.length() && Character.isDigit(f.charAt(i))) {
          i++;
        }
        precision = start == i ? 0 : Integer.parseInt(f.substring(start, i));
        if (i >= f.length()) {
          throw new CelEvaluationException("could not parse formatting clause: unexpected end"
              + " of string");
        }
      }
      char verb = f.charAt(i);
      if (next >= args.size()) {
        throw new CelEvaluationException("index " + next + " out of range");
      }
      Object arg = args.get(next++);
      out.append(clause(verb, precision, arg));
    }
    return out.toString();
  }

  private static String clause(char verb, int precision, Object arg)
      throws CelEvaluationException {
    switch (verb) {
      case 's':
        return string(arg);
      case 'd':
        if (arg instanceof Long || arg instanceof UnsignedLong) {
          return arg.toString();
        }
        throw new CelEvaluationException("error during formatting: decimal clause can only be"
            + " used on integers, was given " + typeName(arg));
      case 'f':
        return fixed(number(arg, "fixed-point"), precision < 0 ? 6 : precision);
      case 'e':
        return scientific(number(arg, "scientific"), precision < 0 ? 6 : precision);
      case 'o':
        return integer(arg, 8, "octal");
      case 'b':
        return arg instanceof Boolean bool ? (bool ? "1" : "0") : integer(arg, 2, "binary");
      case 'x':
      case 'X':
        String hex = hex(arg);
        return verb == 'X' ? hex.toUpperCase(Locale.ROOT) : hex;
      default:
        throw new CelEvaluationException("could not parse formatting clause: unrecognized"
            + " formatting clause \"" + verb + "\"");
    }
  }

  private static double number(Object arg, String clause) throws CelEvaluationException {
    if (arg instanceof Double d) {
      return d;
    }
    if (arg instanceof Long l) {
      return l;
    }
    if (arg instanceof UnsignedLong u) {
      return u.doubleValue();
    }
    throw new CelEvaluationException("error during formatting: " + clause + " clause can only"
        + " be used on doubles, was given " + typeName(arg));
  }

  private static String fixed(double d, int precision) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return new BigDecimal(d).setScale(precision, java.math.RoundingMode.HALF_EVEN)
        .toPlainString();
  }

  /** cel-go prints the exponent as {@code ×10} with superscript digits (at least two). */
  private static String scientific(double d, int precision) {
    String s = String.format(Locale.ROOT, "%." + precision + "e", d);
    int e = s.indexOf('e');
    String mantissa = s.substring(0, e);
    int exponent = Integer.parseInt(s.substring(e + 1));
    String digits = String.format(Locale.ROOT, "%02d", Math.abs(exponent));
    StringBuilder sb = new StringBuilder(mantissa).append("×10");
    if (exponent < 0) {
      sb.append('⁻');
    }
    for (char c : digits.toCharArray()) {
      sb.append(SUPERSCRIPTS.charAt(c - '0'));
    }
    return sb.toString();
  }

  private static String integer(Object arg, int radix, String clause)
      throws CelEvaluationException {
    if (arg instanceof Long l) {
      return Long.toString(l, radix);
    }
    if (arg instanceof UnsignedLong u) {
      return u.bigIntegerValue().toString(radix);
    }
    throw new CelEvaluationException("error during formatting: " + clause + " clause can only"
        + " be used on integers, was given " + typeName(arg));
  }

  private static String hex(Object arg) throws CelEvaluationException {
    if (arg instanceof Long || arg instanceof UnsignedLong) {
      return integer(arg, 16, "hex");
    }
    byte[] bytes;
    if (arg instanceof String s) {
      bytes = s.getBytes(StandardCharsets.UTF_8);
    } else if (arg instanceof dev.cel.common.values.CelByteString b) {
      bytes = b.toByteArray();
    } else if (arg instanceof com.google.protobuf.ByteString b) {
      bytes = b.toByteArray();
    } else {
      throw new CelEvaluationException("error during formatting: only integers, byte buffers,"
          + " and strings can be formatted as hex, was given " + typeName(arg));
    }
    return String.format("%0" + (bytes.length * 2) + "x", new BigInteger(1, bytes))
        .substring(bytes.length == 0 ? 1 : 0);
  }

  /** A value as {@code %s} prints it. */
  static String string(Object arg) {
    if (arg instanceof String s) {
      return s;
    }
    if (arg instanceof Double d) {
      return GoFloats.g(d);
    }
    if (arg instanceof Duration d) {
      return duration(d);
    }
    if (arg instanceof com.google.protobuf.Duration d) {
      return duration(Duration.ofSeconds(d.getSeconds(), d.getNanos()));
    }
    if (arg instanceof Instant t) {
      return DateTimeFormatter.ISO_INSTANT.format(t);
    }
    if (arg instanceof com.google.protobuf.Timestamp t) {
      return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(t.getSeconds(),
          t.getNanos()));
    }
    if (arg instanceof dev.cel.common.values.CelByteString b) {
      return new String(b.toByteArray(), StandardCharsets.UTF_8);
    }
    if (arg instanceof List<?> l) {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < l.size(); i++) {
        sb.append(i > 0 ? ", " : "").append(quoted(l.get(i)));
      }
      return sb.append(']').toString();
    }
    if (arg instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(first ? "" : ", ").append(quoted(e.getKey())).append(": ")
            .append(quoted(e.getValue()));
        first = false;
      }
      return sb.append('}').toString();
    }
    if (arg instanceof dev.cel.common.values.NullValue
        || arg instanceof com.google.protobuf.NullValue) {
      return "null";
    }
    return String.valueOf(arg);
  }

  private static String quoted(Object o) {
    return o instanceof String s ? "\"" + s + "\"" : string(o);
  }

  /** cel-go's duration string: seconds with up to nine fractional digits. */
  private static String duration(Duration d) {
    BigDecimal seconds = new BigDecimal(d.getSeconds()).add(
        BigDecimal.valueOf(d.getNano(), 9)).stripTrailingZeros();
    return seconds.toPlainString() + "s";
  }

  private static String typeName(Object arg) {
    if (arg instanceof String) {
      return "string";
    }
    if (arg instanceof Boolean) {
      return "bool";
    }
    if (arg instanceof Double) {
      return "double";
    }
    if (arg instanceof Long) {
      return "int";
    }
    if (arg instanceof UnsignedLong) {
      return "uint";
    }
    if (arg instanceof List) {
      return "list";
    }
    if (arg instanceof Map) {
      return "map";
    }
    return arg == null ? "null" : arg.getClass().getSimpleName();
  }
}
