/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * kube's {@code controller.ComputeHash} (pkg/controller/controller_utils.go): the FNV-32a hash of
 * a Pod template as {@code hashutil.DeepHashObject} prints it (go-spew's {@code %#v} with sorted
 * map keys and methods disabled) followed by the collision count as 8 little-endian bytes,
 * rendered in decimal and mapped onto kube's {@code rand.SafeEncodeString} alphabet.
 *
 * <p>The template is printed as the Go value kube-controller-manager decodes from the stored
 * object: every field of every struct of {@code v1.PodTemplateSpec} in declaration order with
 * its Go type (the layout is generated from k8s.io/api by
 * {@code controllers/scripts/go-pod-template-types.py}), absent pointers, slices and maps as
 * {@code <nil>}, and empty lists and maps as {@code <nil>} too, since protobuf, in which the
 * server stores objects, keeps no empty collections. Quantities are printed as kube's
 * {@code ParseQuantity} leaves the canonical string the server stores; a quantity it would
 * hold as an {@code inf.Dec}, and a non-zero time, are printed in an approximation (their
 * exact printing depends on big-number internals and on the controller host's time zone).
 * Thread-safe.
 */
public final class PodTemplateHash {
  /** apps {@code DefaultDeploymentUniqueLabelKey}, which {@link #equalIgnoreHash} ignores. */
  private static final String DEPLOYMENT_HASH_LABEL = "pod-template-hash";
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
  private static final String TEMPLATE_TYPE = "v1.PodTemplateSpec";
  private static final Types TYPES = Types.load();

  private PodTemplateHash() {}

  /**
   * {@code ComputeHash(template, collisionCount)}: the value of a Deployment's pod-template-hash
   * label and of a DaemonSet's controller-revision-hash label (both hash the Pod template).
   */
  public static String compute(MapValue template, OptionalLong collisionCount) {
    Objects.requireNonNull(template, "template");
    int hash = fnv32a(0x811c9dc5, print(template).getBytes(StandardCharsets.UTF_8));
    if (collisionCount.isPresent()) {
      byte[] b = new byte[8];
      int c = (int) collisionCount.getAsLong();
      for (int i = 0; i < 4; i++) {
        b[i] = (byte) (c >>> (8 * i));
      }
      hash = fnv32a(hash, b);
    }
    return safeEncode(Integer.toUnsignedString(hash));
  }

  /** The template as go-spew's {@code %#v} prints the Go value. */
  static String print(MapValue template) {
    StringBuilder out = new StringBuilder(4096);
    TYPES.print(out, TEMPLATE_TYPE, template, true);
    return out.toString();
  }

  /** FNV-32a over {@code bytes} from the state {@code hash}. */
  static int fnv32a(int hash, byte[] bytes) {
    int h = hash;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x01000193;
    }
    return h;
  }

  /** kube's {@code rand.SafeEncodeString}. */
  static String safeEncode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      out.append(ALPHANUMS.charAt(s.charAt(i) % ALPHANUMS.length()));
    }
    return out.toString();
  }

  /** The Go layout of the types reachable from {@code v1.PodTemplateSpec}. */
  private static final class Types {
    private record Field(String goName, String type, String json) {}

    private final Map<String, List<Field>> structs;
    private final Map<String, String> named;

    private Types(Map<String, List<Field>> structs, Map<String, String> named) {
      this.structs = structs;
      this.named = named;
    }

    static Types load() {
      Map<String, List<Field>> structs = new HashMap<>();
      Map<String, String> named = new HashMap<>();
      try (InputStream in = PodTemplateHash.class.getResourceAsStream(
          "pod-template-go-types.txt")) {
        if (in == null) {
          throw new IllegalStateException("pod-template-go-types.txt is missing");
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        List<Field> current = null;
        for (String line; (line = r.readLine()) != null; ) {
          if (line.isEmpty() || line.startsWith("#")) {
            continue;
          }
          String[] p = line.split(" ");
          switch (p[0]) {
            case "struct" -> {
              current = new ArrayList<>();
              structs.put(p[1], current);
            }
            case "field" -> current.add(new Field(p[1], p[2], p[3]));
            case "named" -> named.put(p[1], p[2]);
            default -> throw new IllegalStateException("bad line in pod-template-go-types.txt: "
                + line);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new Types(structs, named);
    }

    /**
     * Prints {@code v} (null when absent) as the Go type {@code type}; {@code showType} is
     * go-spew's "not ignoreNextType": false for slice elements and map keys and values.
     */
    void print(StringBuilder out, String type, Value v, boolean showType) {
      Value value = v == null || v.isNull() ? null : v;
      if (type.startsWith("*")) {
        if (value == null) {
          out.append(showType ? "(" + type + ")" : "").append("<nil>");
          return;
        }
        out.append(showType ? "(" + type + ")" : "<*>");
        print(out, type.substring(1), value, false);
        return;
      }
      if (showType) {
        out.append('(').append(type).append(')');
      }
      String underlying = named.getOrDefault(type, type);
      if (underlying.startsWith("[]")) {
        List<Value> items = value == null ? List.of() : Nested.list(value);
        if (items.isEmpty()) {
          out.append("<nil>");
          return;
        }
        out.append('[');
        for (int i = 0; i < items.size(); i++) {
          if (i > 0) {
            out.append(' ');
          }
          print(out, underlying.substring(2), items.get(i), false);
        }
        out.append(']');
        return;
      }
      if (underlying.startsWith("map[")) {
        MapValue m = value instanceof MapValue mv ? mv : MapValue.empty();
        if (m.isEmpty()) {
          out.append("<nil>");
          return;
        }
        String valueType = underlying.substring(mapValueStart(underlying));
        // go-spew sorts string keys bytewise: the same order as UTF-16 outside surrogates
        TreeMap<String, Value> sorted = new TreeMap<>(m.asMap());
        out.append("map[");
        boolean first = true;
        for (Map.Entry<String, Value> e : sorted.entrySet()) {
          if (!first) {
            out.append(' ');
          }
          first = false;
          out.append(e.getKey()).append(':');
          print(out, valueType, e.getValue(), false);
        }
        out.append(']');
        return;
      }
      switch (underlying) {
        case "string" -> out.append(value == null ? "" : Nested.str(value));
        case "bool" -> out.append(value != null && Nested.bool(value));
        case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
            "uint64" -> out.append(value == null ? 0 : Nested.integer(value));
        case "resource.Quantity" -> quantity(out, value);
        case "intstr.IntOrString" -> intOrString(out, value);
        case "v1.Time" -> out.append("{Time:(time.Time){wall:(uint64)0 ext:(int64)")
            .append(value == null ? 0 : goSeconds(value))
            .append(" loc:(*time.Location)<nil>}}");
        case "v1.FieldsV1" -> out.append("{Raw:([]uint8)").append(value == null ? "<nil>"
            : bytes(Json.write(value))).append('}');
        default -> struct(out, underlying, value);
      }
    }

    private void struct(StringBuilder out, String type, Value value) {
      List<Field> fields = structs.get(type);
      if (fields == null) {
        throw new IllegalStateException("no Go layout for " + type);
      }
      MapValue m = value instanceof MapValue mv ? mv : MapValue.empty();
      out.append('{');
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        if (i > 0) {
          out.append(' ');
        }
        out.append(f.goName()).append(':');
        Value fv = switch (f.json()) {
          case "*" -> m;
          case "-" -> null;
          default -> m.getOrNull(f.json());
        };
        print(out, f.type(), fv, true);
      }
      out.append('}');
    }

    private static int mapValueStart(String mapType) {
      int depth = 0;
      for (int i = 3; i < mapType.length(); i++) {
        char c = mapType.charAt(i);
        if (c == '[') {
          depth++;
        } else if (c == ']' && --depth == 0) {
          return i + 1;
        }
      }
      throw new IllegalStateException("bad map type " + mapType);
    }

    private static void intOrString(StringBuilder out, Value value) {
      boolean isString = value != null && value.kind() == Value.Kind.STRING;
      out.append("{Type:(intstr.Type)").append(isString ? 1 : 0)
          .append(" IntVal:(int32)").append(value == null || isString ? 0 : Nested.integer(value))
          .append(" StrVal:(string)").append(isString ? Nested.str(value) : "").append('}');
    }

    /** The fields kube's {@code ParseQuantity} leaves for a quantity string. */
    private static void quantity(StringBuilder out, Value value) {
      String s = value == null ? "" : value.kind() == Value.Kind.STRING ? Nested.str(value)
          : Json.write(value);
      // the server stores a quantity in its canonical form, which kube-controller-manager parses
      ParsedQuantity q = ParsedQuantity.parse(ParsedQuantity.canonical(s));
      out.append("{i:(resource.int64Amount){value:(int64)").append(q.value())
          .append(" scale:(resource.Scale)").append(q.scale())
          .append("} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)")
          .append(q.cached()).append(" Format:(resource.Format)").append(q.format()).append('}');
    }

    private static long goSeconds(Value time) {
      try {
        // Go's time.Time keeps seconds since year 1 in ext when it has no monotonic reading
        return java.time.Instant.parse(Nested.str(time)).getEpochSecond() + 62135596800L;
      } catch (java.time.format.DateTimeParseException e) {
        return 0;
      }
    }

    private static String bytes(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < b.length; i++) {
        if (i > 0) {
          out.append(' ');
        }
        out.append(b[i] & 0xff);
      }
      return out.append(']').toString();
    }
  }

  /**
   * The int64 form kube's {@code ParseQuantity} gives a quantity string: value, scale, the
   * string it caches when the input is canonical, and the format. An input kube would hold as
   * an {@code inf.Dec} keeps its string and a zero amount.
   */
  record ParsedQuantity(long value, int scale, String cached, String format) {
    /**
     * kube's {@code Quantity.String()} of the parsed string: the canonical form protobuf
     * stores. Inputs outside the int64 form are returned unchanged.
     */
    static String canonical(String str) {
      ParsedQuantity q = parse(str);
      if (q.format().isEmpty()) {
        return str;
      }
      if (q.value() == 0) {
        // a zero, or an amount only an inf.Dec holds
        return isZero(str) ? "0" : str;
      }
      String format = q.format();
      if (format.equals("BinarySI")) {
        if (q.value() > -1024 && q.value() < 1024) {
          format = "DecimalSI";
        } else {
          long[] f = removeFactors(q.value(), 1024);
          String suffix = switch ((int) f[1]) {
            case 0 -> "";
            case 1 -> "Ki";
            case 2 -> "Mi";
            case 3 -> "Gi";
            case 4 -> "Ti";
            case 5 -> "Pi";
            case 6 -> "Ei";
            default -> null;
          };
          return suffix == null ? str : f[0] + suffix;
        }
      }
      long[] f = removeFactors(q.value(), 10);
      long amount = f[0];
      long exponent = q.scale() + f[1];
      try {
        switch ((int) (exponent % 3)) {
          case 1, -2 -> {
            amount = Math.multiplyExact(amount, 10);
            exponent -= 1;
          }
          case 2, -1 -> {
            amount = Math.multiplyExact(amount, 100);
            exponent -= 2;
          }
          default -> { }
        }
      } catch (ArithmeticException e) {
        return str;
      }
      if (format.equals("DecimalExponent")) {
        return exponent == 0 ? String.valueOf(amount) : amount + "e" + exponent;
      }
      String suffix = switch ((int) exponent) {
        case -9 -> "n";
        case -6 -> "u";
        case -3 -> "m";
        case 0 -> "";
        case 3 -> "k";
        case 6 -> "M";
        case 9 -> "G";
        case 12 -> "T";
        case 15 -> "P";
        case 18 -> "E";
        default -> null;
      };
      return suffix == null ? str : amount + suffix;
    }

    private static boolean isZero(String str) {
      return str.chars().noneMatch(c -> c >= '1' && c <= '9');
    }

    /** kube's {@code removeInt64Factors}: {value without the base's factors, their count}. */
    private static long[] removeFactors(long value, long base) {
      long result = Math.abs(value);
      long times = 0;
      while (result >= base && result % base == 0) {
        times++;
        result /= base;
      }
      return new long[] {value < 0 ? -result : result, times};
    }

    static ParsedQuantity parse(String str) {
      if (str.isEmpty()) {
        return new ParsedQuantity(0, 0, "", "");
      }
      if (str.equals("0")) {
        return new ParsedQuantity(0, 0, "0", "DecimalSI");
      }
      int pos = 0;
      boolean positive = true;
      if (str.charAt(0) == '-' || str.charAt(0) == '+') {
        positive = str.charAt(0) == '+';
        pos++;
      }
      while (pos < str.length() && str.charAt(pos) == '0') {
        pos++;
      }
      int start = pos;
      while (pos < str.length() && Character.isDigit(str.charAt(pos))) {
        pos++;
      }
      String num = str.substring(start, pos);
      if (num.isEmpty()) {
        num = "0";
      }
      String denom = "";
      if (pos < str.length() && str.charAt(pos) == '.') {
        int d = ++pos;
        while (pos < str.length() && Character.isDigit(str.charAt(pos))) {
          pos++;
        }
        denom = str.substring(d, pos);
      }
      String suffix = str.substring(pos);
      int base;
      int exponent;
      String format;
      switch (suffix) {
        case "" -> { base = 10; exponent = 0; format = "DecimalSI"; }
        case "n" -> { base = 10; exponent = -9; format = "DecimalSI"; }
        case "u" -> { base = 10; exponent = -6; format = "DecimalSI"; }
        case "m" -> { base = 10; exponent = -3; format = "DecimalSI"; }
        case "k" -> { base = 10; exponent = 3; format = "DecimalSI"; }
        case "M" -> { base = 10; exponent = 6; format = "DecimalSI"; }
        case "G" -> { base = 10; exponent = 9; format = "DecimalSI"; }
        case "T" -> { base = 10; exponent = 12; format = "DecimalSI"; }
        case "P" -> { base = 10; exponent = 15; format = "DecimalSI"; }
        case "E" -> { base = 10; exponent = 18; format = "DecimalSI"; }
        case "Ki" -> { base = 2; exponent = 10; format = "BinarySI"; }
        case "Mi" -> { base = 2; exponent = 20; format = "BinarySI"; }
        case "Gi" -> { base = 2; exponent = 30; format = "BinarySI"; }
        case "Ti" -> { base = 2; exponent = 40; format = "BinarySI"; }
        case "Pi" -> { base = 2; exponent = 50; format = "BinarySI"; }
        case "Ei" -> { base = 2; exponent = 60; format = "BinarySI"; }
        default -> {
          if ((suffix.startsWith("e") || suffix.startsWith("E")) && suffix.length() > 1) {
            try {
              exponent = Integer.parseInt(suffix.substring(1));
            } catch (NumberFormatException e) {
              return new ParsedQuantity(0, 0, str, "");
            }
            base = 10;
            format = "DecimalExponent";
          } else {
            return new ParsedQuantity(0, 0, str, "");
          }
        }
      }
      int precision = 0;
      int scale = 0;
      long mantissa = 1;
      if (base == 10) {
        scale = exponent;
        precision = 18 - (num.length() + denom.length());
      } else if (denom.isEmpty()) {
        mantissa = 1L << exponent;
        precision = 15 - num.length() - (int) ((float) exponent * 3 / 10) - 1;
      } else {
        precision = -1;
      }
      if (precision >= 0) {
        scale -= denom.length();
        if (scale >= -9) {
          String shifted = num + denom;
          long v;
          try {
            v = Long.parseLong(shifted);
          } catch (NumberFormatException e) {
            return new ParsedQuantity(0, 0, str, format);
          }
          long result;
          try {
            result = Math.multiplyExact(v, mantissa);
          } catch (ArithmeticException e) {
            return new ParsedQuantity(0, 0, str, format);
          }
          if (!positive) {
            result = -result;
          }
          boolean canonical = base == 2
              ? exponent % 10 == 0 && (v & 0x07) != 0
              : scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
          return new ParsedQuantity(result, scale, canonical ? str : "", format);
        }
      }
      return new ParsedQuantity(0, 0, str, format);
    }
  }

  /**
   * Whether two templates are equal but for their pod-template-hash label (kube's
   * {@code EqualIgnoreHash} of the deployment util).
   */
  public static boolean equalIgnoreHash(MapValue a, MapValue b) {
    return print(withoutHashLabel(a)).equals(print(withoutHashLabel(b)));
  }

  /** The template without its pod-template-hash label (the template itself when it has none). */
  public static MapValue withoutHashLabel(MapValue template) {
    MapValue labels = Nested.mapOrNull(template, "metadata", "labels");
    if (labels == null || !labels.containsKey(DEPLOYMENT_HASH_LABEL)) {
      return template;
    }
    return Nested.set(template, labels.without(DEPLOYMENT_HASH_LABEL), "metadata", "labels");
  }
}
